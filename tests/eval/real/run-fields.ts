// Field (discipline) accuracy on real documents, with the share left "Unclassified" and the wrong
// classes, at the shipped threshold and across thresholds (the trade-off), per half: the confidence
// and threshold were fitted on "tune"; "report" is what they never saw. The fit itself is redone
// here so the bench can show it beside the shipped constants.
import type { FIELD_CONFIDENCE } from '@kaboodle/processing';
import { FIELD_THRESHOLD, guessField } from '@kaboodle/processing';
import type { FieldDocument } from './field-set.ts';

export interface FieldRow {
  id: string;
  kind: string;
  half: 'tune' | 'report' | 'team';
  fields: string[];
  label: string;
  confidence: number;
  cues: string[];
  features?: { margin: number; density: number; distinct: number };
}

export interface FieldOutcome {
  threshold: number;
  documents: number;
  /** The field given is one a reader accepts, or Unclassified where that is acceptable. */
  accuracy: number;
  /** A class given that a reader would not accept. */
  wrong: number;
  unclassified: number;
  misses: string[];
}

export function fieldRows(
  docs: Array<Pick<FieldDocument, 'id' | 'kind' | 'text' | 'fields'> & { half: FieldRow['half'] }>,
): FieldRow[] {
  return docs.map((d) => {
    // The enricher classifies the first 60 000 characters it analyses.
    const g = guessField(d.text.slice(0, 60_000));
    return {
      id: d.id,
      kind: d.kind,
      half: d.half,
      fields: d.fields,
      label: g?.label ?? '',
      confidence: g?.confidence ?? 0,
      cues: g?.cues ?? [],
      ...(g ? { features: g.features } : {}),
    };
  });
}

export function fieldOutcome(rows: FieldRow[], threshold = FIELD_THRESHOLD): FieldOutcome {
  let right = 0;
  let wrong = 0;
  let unclassified = 0;
  const misses: string[] = [];
  for (const r of rows) {
    const got = r.label && r.confidence >= threshold ? r.label : '';
    if (!got) unclassified++;
    if (r.fields.includes(got)) right++;
    else {
      if (got) wrong++;
      misses.push(
        `${r.id}: ${got || `Unclassified (${r.label || 'no cue'} ${r.confidence.toFixed(2)})`} [${r.cues.join(', ')}], expected ${r.fields.map((f) => f || 'Unclassified').join(' or ')}`,
      );
    }
  }
  const n = Math.max(1, rows.length);
  return {
    threshold,
    documents: rows.length,
    accuracy: right / n,
    wrong: wrong / n,
    unclassified: unclassified / n,
    misses,
  };
}

/** Logistic regression of "the best field is right" on the rows' features (for the bench). */
export function fitFieldConfidence(rows: FieldRow[]): typeof FIELD_CONFIDENCE {
  const data = rows.flatMap((r) =>
    r.features
      ? [
          {
            x: [r.features.margin, r.features.density, r.features.distinct, 1],
            y: r.fields.includes(r.label) ? 1 : 0,
          },
        ]
      : [],
  );
  const w = [0, 0, 0, 0];
  for (let it = 0; it < 20_000; it++) {
    const g = [0, 0, 0, 0];
    for (const { x, y } of data) {
      const p = 1 / (1 + Math.exp(-x.reduce((s, v, i) => s + v * w[i]!, 0)));
      for (let i = 0; i < 4; i++) g[i]! += (p - y) * x[i]!;
    }
    // A little L2 on the slopes keeps the fit stable on ~130 documents.
    for (let i = 0; i < 4; i++)
      w[i]! -= 0.05 * (g[i]! / Math.max(1, data.length) + (i < 3 ? 0.01 * w[i]! : 0));
  }
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return { margin: r2(w[0]!), density: r2(w[1]!), distinct: r2(w[2]!), bias: r2(w[3]!) };
}

/** The threshold that maximises right answers minus `wrongCost` times the wrong ones. */
export function chooseThreshold(rows: FieldRow[], wrongCost = 2): number {
  let best = { t: 0, u: -Infinity };
  for (let t = 0; t <= 0.95 + 1e-9; t += 0.05) {
    const o = fieldOutcome(rows, t);
    const u = o.accuracy - wrongCost * o.wrong;
    if (u > best.u + 1e-9) best = { t: Math.round(t * 100) / 100, u };
  }
  return best.t;
}
