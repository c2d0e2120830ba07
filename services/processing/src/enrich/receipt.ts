// A receipt or invoice read as one: who sold it, what, how much and when. Its "most central
// sentence" is a footer like "Paid by card.", so the extractive summary says nothing; these rules
// compose the summary a person would write from the lines that carry the facts instead.

export interface Receipt {
  merchant: string;
  date: string;
  items: string[];
  total: string;
  payment: string;
}

const PRICE = /(?:[$£€¥]|\b(?:usd|eur|gbp|pln|chf)\s?)?-?\d{1,3}(?:[ ,.]\d{3})*[.,]\d{2}\b/i;
const PRICE_AT_END = new RegExp(`(${PRICE.source})\\s*(?:[$£€¥]|[A-Z]{3})?\\s*$`, 'i');
const TOTAL =
  /\b(?:grand total|total(?: due| amount| paid)?|amount due|balance due|to pay|suma|summe|montant)\b/i;
const NOT_ITEM =
  /\b(?:sub-?total|total|tax|vat|gst|tip|change|cash|card|visa|mastercard|amex|paid|tendered|discount|balance|rounding|amount due)\b/i;
const DATE =
  /\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2},? \d{4})\b/i;
const PAYMENT =
  /\b(?:paid by|paid with|payment:?)\s+([a-z ]{3,20}?)(?:[.,;]|$)|\b(visa|mastercard|amex|cash|debit card|credit card)\b/i;

/** The receipt in a text, or null: a total line and at least two priced lines are required. */
export function readReceipt(text: string): Receipt | null {
  const lines = text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  if (lines.length < 3 || lines.length > 200) return null;
  const totalLine = lines.find((l) => TOTAL.test(l) && !/sub-?total/i.test(l) && PRICE_AT_END.test(l));
  const priced = lines.filter((l) => PRICE_AT_END.test(l));
  if (!totalLine || priced.length < 2) return null;
  const items = priced
    .filter((l) => !NOT_ITEM.test(l))
    .map((l) => l.replace(PRICE_AT_END, '').replace(/[\s.:-]+$/, ''))
    .filter((l) => /\p{L}{2}/u.test(l));
  if (items.length === 0) return null;
  // The seller is the first line that is neither a date nor a price nor an item.
  const merchant =
    lines.find(
      (l) => !DATE.test(l) && !PRICE.test(l) && /\p{L}{3}/u.test(l) && !/^(?:receipt|invoice)\b/i.test(l),
    ) ?? '';
  const date = lines.map((l) => DATE.exec(l)?.[0]).find(Boolean) ?? '';
  const total = PRICE_AT_END.exec(totalLine)![1]!.trim();
  const pay = lines.map((l) => PAYMENT.exec(l)).find(Boolean);
  const payment = (pay?.[1] ?? pay?.[2] ?? '').trim().toLowerCase();
  return { merchant, date, items, total, payment };
}

/** "Receipt from Harbour Craft Market, 12/05/2024: 2 x Hand-thrown mug, 1 x Linen tea towel; total 60.50, paid by card." */
export function receiptSummary(r: Receipt): string {
  const shown =
    r.items.slice(0, 4).join(', ') + (r.items.length > 4 ? `, and ${r.items.length - 4} more` : '');
  const from = r.merchant ? ` from ${titleCase(r.merchant)}` : '';
  const when = r.date ? `, ${r.date}` : '';
  const paid = r.payment ? `, paid by ${r.payment.replace(/^(?:by|with) /, '')}` : '';
  return `Receipt${from}${when}: ${shown}; total ${r.total}${paid}.`;
}

/** A shouted shop name reads better in title case; a name already in mixed case is kept. */
function titleCase(s: string): string {
  if (/\p{Ll}/u.test(s)) return s;
  return s.toLowerCase().replace(/(^|[\s'’-])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase());
}
