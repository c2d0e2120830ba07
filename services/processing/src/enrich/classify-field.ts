// Field (which discipline a document belongs to) from the words of its text, with a confidence that
// is a fitted probability of being right, and "Unclassified" (no field) below a threshold: a wrong
// field misleads a library more than an empty one. The evidence per field is how many of its cue
// words occur (with diminishing returns), how densely, and by how much it beats the runner-up.
// Confidence and threshold were fitted on the "tune" half of the real field-labelled set
// (tests/eval/real/fields.ts) and the team's set; the bench reports them on the other half.
import type { Classification } from './classify.ts';
import { FIELD_LEXICON } from './field-lexicon.ts';

export interface FieldGuess extends Classification {
  /** The runner-up and the features the confidence was computed from (for the bench's fit). */
  runnerUp: string;
  features: FieldFeatures;
}

export interface FieldFeatures {
  /** log of the best score over the runner-up's (each + 0.5). */
  margin: number;
  /** log(1 + cue hits of the best field per 1000 words). */
  density: number;
  /** log of the number of different cue words of the best field. */
  distinct: number;
}

/**
 * Logistic fit of "the best field is right" on the tune half and the team's set (129 documents;
 * services/processing/bench/eval.ts refits and prints it beside these).
 */
export const FIELD_CONFIDENCE = { margin: 1.56, density: 0.85, distinct: 0.34, bias: -1.32 };
/**
 * Below this confidence the field is left empty ("Unclassified"). Chosen on the tune half as the
 * threshold that maximises right answers minus twice the wrong ones (a wrong field costs more than
 * an empty one): 0.75 there, against 0.5 when a wrong field costs what an empty one does.
 */
export const FIELD_THRESHOLD = 0.75;

interface Matcher {
  label: string;
  cues: Array<{ cue: string; re: RegExp; weight: number }>;
}

const MATCHERS: Matcher[] = Object.entries(FIELD_LEXICON).map(([label, stems]) => ({
  label,
  cues: stems.map((entry) => {
    const whole = entry.endsWith('=');
    const stem = whole ? entry.slice(0, -1) : entry;
    return {
      cue: stem.replace(/\\/g, ''),
      // Hyphen and space are one ("break-even", "break even"); '=' asks for the whole word.
      re: new RegExp(
        `(?<![\\p{L}\\p{N}])${stem.replace(/[- ]/g, '[- ]')}${whole ? '(?![\\p{L}\\p{N}])' : ''}`,
        'gu',
      ),
      weight: stem.includes(' ') || stem.includes('-') ? 1.5 : 1,
    };
  }),
}));

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The best field with its fitted confidence, whatever it is (null when no cue word occurs at all). */
export function guessField(text: string): FieldGuess | null {
  const sample = text.slice(0, 60_000).toLowerCase();
  const words = Math.max(1, sample.split(/\s+/).filter(Boolean).length);
  const scored = MATCHERS.map(({ label, cues }) => {
    let score = 0;
    let hits = 0;
    const found: string[] = [];
    for (const { cue, re, weight } of cues) {
      const n = sample.match(re)?.length ?? 0;
      if (n === 0) continue;
      // Diminishing returns: one word said forty times is not forty pieces of evidence.
      score += Math.log1p(n) * weight;
      hits += n;
      found.push(cue);
    }
    return { label, score, hits, found };
  }).sort((a, b) => b.score - a.score);
  const best = scored[0]!;
  const second = scored[1]!;
  if (best.score === 0) return null;
  const features: FieldFeatures = {
    margin: Math.log((best.score + 0.5) / (second.score + 0.5)),
    density: Math.log1p((1000 * best.hits) / words),
    distinct: Math.log(best.found.length),
  };
  const c = FIELD_CONFIDENCE;
  const confidence = sigmoid(
    c.margin * features.margin + c.density * features.density + c.distinct * features.distinct + c.bias,
  );
  return {
    label: best.label,
    confidence: Math.round(confidence * 100) / 100,
    cues: best.found.slice(0, 5),
    runnerUp: second.score > 0 ? second.label : '',
    features,
  };
}

/** The field, or null ("Unclassified") when the evidence is too thin to be right more often than not. */
export function classifyField(text: string, threshold = FIELD_THRESHOLD): Classification | null {
  const guess = guessField(text);
  if (!guess || guess.confidence < threshold) return null;
  return { label: guess.label, confidence: guess.confidence, cues: guess.cues };
}
