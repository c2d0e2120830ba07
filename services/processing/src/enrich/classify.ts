// Category (what kind of document) by weighted cue words and structural signs; scores are turned
// into a confidence by their margin over the runner-up. The field (discipline) is classify-field.ts.

export interface Classification {
  label: string;
  confidence: number;
  /** The cues that decided it, for provenance. */
  cues: string[];
}

const CATEGORY_CUES: Record<string, Array<[RegExp, number]>> = {
  'Research Paper': [
    [/\babstract\b/i, 2],
    [/\breferences\b|\bbibliography\b/i, 2],
    [/\bdoi\b|10\.\d{4,}\//i, 2],
    [/\bjournal\b|\bproceedings\b/i, 1.5],
    [/\bmethod(?:s|ology)\b/i, 1],
    [/\bresults\b/i, 1],
    [/\bwe (?:propose|present|show|find)\b/i, 1],
    [/\bet al\.?/i, 1],
  ],
  'Legal Memo': [
    [/\bmemorandum\b|\bmemo\b/i, 2.5],
    [/^\s*(?:to|from|re|cc)\s*:/im, 1.5],
    [/\bquestion presented\b|\bshort answer\b/i, 3],
    [/\bprivileged\b|\battorney[- ]client\b/i, 2],
    [/\bcourt\b|\bstatute\b|\bcase law\b|\bv\.\s+[A-Z]/i, 1],
  ],
  'Business Plan': [
    [/\bbusiness plan\b/i, 3],
    [/\bexecutive summary\b/i, 2],
    [/\bmarket (?:analysis|opportunity|size)\b|\btarget market\b/i, 2],
    [/\bfinancial (?:plan|projections?)\b|\brevenue\b/i, 1.5],
    [/\bcompetitors?\b|\bcompetitive\b/i, 1],
    [/\bfunding\b|\binvestors?\b/i, 1],
  ],
  Contract: [
    [/\bagreement\b/i, 1.5],
    [/\bhereby\b|\bwhereas\b|\bin witness whereof\b/i, 2.5],
    [/\bparties\b|\bthe party\b/i, 1],
    [/\bterminat(?:e|ion)\b/i, 1],
    [/\bindemnif/i, 1.5],
  ],
  Essay: [
    [/\bessay\b/i, 2.5],
    [/\bI (?:argue|believe|think|contend)\b/, 2],
    [/\bin this essay\b/i, 3],
    [/\bperhaps\b|\bsurely\b/i, 0.5],
  ],
  Report: [
    [/\breport\b/i, 1.5],
    [/\bfindings\b/i, 1],
    [/\brecommendations?\b/i, 1],
    [/\bquarter(?:ly)?\b|\bfiscal year\b|\bannual\b/i, 1],
  ],
  Letter: [
    [/^\s*dear\b/im, 3],
    [/\b(?:sincerely|best regards|yours truly)\b/i, 2.5],
    // A message: "Hi team," … "Thanks," with a name under it.
    [/^\s*(?:hi|hello|hey)\b[^\n]{0,40},\s*$/im, 2],
    [/^\s*(?:thanks|many thanks|thank you|cheers|best wishes|all the best|best|regards),?\s*\n\s*\S/im, 1],
  ],
  Article: [
    [/\bposted\b|\bpublished on\b|\bupdated\b/i, 1],
    [/\bshare this\b|\bsubscribe\b/i, 1],
  ],
};

/** A title that says what kind of document it is ("Field Report", "An Essay on…"). */
const TITLE_CUES: Record<string, RegExp> = {
  Report: /\breport\b/i,
  Essay: /\bessay\b/i,
  Letter: /\bletter\b/i,
  'Business Plan': /\bbusiness plan\b/i,
  Contract: /\b(?:agreement|contract)\b/i,
  'Legal Memo': /\bmemo(?:randum)?\b/i,
};

export interface CategoryHints {
  title?: string;
  /** The text names its author under the title (a byline). */
  byline?: boolean;
  /** Most of the body is list items. */
  isList?: boolean;
}

export function classifyCategory(text: string, hints: CategoryHints = {}): Classification {
  const head = text.slice(0, 20_000);
  const tail = text.slice(-8_000);
  const scored = Object.entries(CATEGORY_CUES).map(([label, cues]) => {
    let score = 0;
    const hits: string[] = [];
    for (const [re, w] of cues) {
      if (re.test(head) || re.test(tail)) {
        score += w;
        hits.push(re.source.replace(/\\b|\\s\*|\(\?:|\)|\\/g, '').slice(0, 30));
      }
    }
    if (hints.title && TITLE_CUES[label]?.test(hints.title)) {
      score += 1.5;
      hits.unshift(`title: ${hints.title}`.slice(0, 40));
    }
    return { label, score, hits };
  });
  scored.sort((a, b) => b.score - a.score);
  const best = scored[0]!;
  const second = scored[1]?.score ?? 0;
  if (best.score < 2) return fallbackCategory(text, hints);
  const confidence = Math.min(0.9, 0.4 + (best.score - second) / (best.score + 2));
  return { label: best.label, confidence: Math.round(confidence * 100) / 100, cues: best.hits.slice(0, 4) };
}

/**
 * No kind-of-document cues: decide by shape. A list is a List; a title with a byline is an
 * Article; a short text (or one titled "Notes") is a Note; anything else stays Other.
 */
function fallbackCategory(text: string, hints: CategoryHints): Classification {
  const words = text.split(/\s+/).filter(Boolean).length;
  if (hints.isList) return { label: 'List', confidence: 0.5, cues: ['mostly list items'] };
  if (hints.title && /\b(?:notes?|minutes|diary|journal entry|memo to self|reminders?)\b/i.test(hints.title))
    return { label: 'Note', confidence: 0.5, cues: [`title: ${hints.title}`.slice(0, 40)] };
  if (hints.title && hints.byline) return { label: 'Article', confidence: 0.4, cues: ['title and byline'] };
  if (words < 400) return { label: 'Note', confidence: 0.35, cues: [`short text (${words} words)`] };
  return { label: 'Other', confidence: 0.3, cues: [] };
}
