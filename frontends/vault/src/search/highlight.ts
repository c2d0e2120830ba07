// docs/product.md#search: query words are highlighted in titles and descriptions. Words are matched literally
// (regex metacharacters escaped) and case-insensitively.

export interface TextPart {
  text: string;
  match: boolean;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The distinct words of a query, longest first so "bead" does not shadow "beads". */
export function queryWords(query: string): string[] {
  const words = query
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  return [...new Set(words.map((w) => w.toLowerCase()))].sort((a, b) => b.length - a.length);
}

export function highlightParts(text: string, query: string): TextPart[] {
  if (text === '') return [];
  const words = queryWords(query);
  if (words.length === 0) return [{ text, match: false }];
  const pattern = new RegExp(`(${words.map(escapeRegExp).join('|')})`, 'gi');
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    const start = m.index;
    if (m[0] === '') continue;
    if (start > last) parts.push({ text: text.slice(last, start), match: false });
    parts.push({ text: m[0], match: true });
    last = start + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false });
  return parts;
}
