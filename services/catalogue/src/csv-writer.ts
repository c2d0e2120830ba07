// CSV for spreadsheets (RFC 4180): CRLF line ends, a field quoted when it holds a comma, quote, CR or
// LF (quotes doubled). Text that a spreadsheet would run as a formula (starting with = + - @, tab or
// CR) gets a leading apostrophe (OWASP "CSV injection"); numbers are written as numbers.

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Byte-order mark that makes Excel read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';
