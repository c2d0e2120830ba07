// What the offline enricher can take from the user's free-text AI instructions. The generative
// provider gets the text verbatim; offline, only explicit directives are understood:
// "tags: a, b", "category: Legal Memo", "field: Law", "title: ...", "author: ...", "year: 2020".

export interface InstructionDirectives {
  tags: string[];
  category?: string;
  field?: string;
  title?: string;
  author?: string;
  year?: number;
  /** Wanted summary length in sentences ("summary: 2 sentences", "short summary"). */
  summarySentences?: number;
}

const KEYS: Record<string, keyof InstructionDirectives> = {
  tags: 'tags',
  tag: 'tags',
  hashtags: 'tags',
  category: 'category',
  type: 'category',
  field: 'field',
  discipline: 'field',
  title: 'title',
  author: 'author',
  authors: 'author',
  year: 'year',
};

export function parseInstructions(text: string | undefined): InstructionDirectives {
  const out: InstructionDirectives = { tags: [] };
  if (!text) return out;
  // Directives may share a line when separated by ';' ("tags: a, b; category: memo").
  for (const part of text.split(/[\n;]+/)) {
    const m = /^\s*(?:add\s+|use\s+)?([a-z]+)\s*[:=]\s*(.+?)\s*\.?\s*$/i.exec(part);
    if (m) {
      const key = KEYS[m[1]!.toLowerCase()];
      const value = m[2]!.trim();
      if (key === 'tags') {
        out.tags.push(
          ...value
            .split(value.includes(',') ? ',' : /\s+/)
            .map((t) => t.replace(/^#/, '').trim())
            .filter(Boolean),
        );
      } else if (key === 'year') {
        const y = /\b(1[5-9]\d\d|20\d\d)\b/.exec(value);
        if (y) out.year = Number(y[1]);
      } else if (key) {
        (out as unknown as Record<string, string>)[key] = value;
      }
      continue;
    }
    // "#foo #bar" anywhere counts as requested tags.
    for (const h of part.matchAll(/(?:^|\s)#([A-Za-z][\w-]{1,40})/g)) out.tags.push(h[1]!);
    const s = /\b(\d{1,2})\s+sentences?\b/i.exec(part);
    if (s && /summar/i.test(part)) out.summarySentences = Math.min(10, Math.max(1, Number(s[1])));
    else if (/\b(?:short|brief|one[- ]line)\s+summar/i.test(part)) out.summarySentences = 1;
  }
  return out;
}
