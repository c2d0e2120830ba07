// The offline enricher in its worker thread: the same fields as in this thread for real documents
// (with instructions and the user's tags), a cancelled file stops waiting, and a closed pool says so.
import { describe, expect, it } from 'vitest';
import type { EnrichInput } from './document-enricher.ts';
import { createOfflineEnricher } from './offline-enricher.ts';
import { createPooledOfflineEnricher } from './pooled-enricher.ts';

const inputs: EnrichInput[] = [
  {
    text: [
      'Sleep Deprivation and Medical Errors',
      'Maria Lopez',
      'Journal of Clinical Safety, 2019',
      '',
      'Residents who worked shifts longer than 24 hours made 36% more serious medical errors than those on shorter shifts. ' +
        'This study followed 220 interns across three hospitals and recorded every adverse event. ' +
        'We argue that duty-hour limits reduce harm to patients without hurting training.',
    ].join('\n'),
    fileName: 'sleep.pdf',
  },
  {
    text: 'Glaze notes\n\nCeladon over stoneware, fired to cone 10 in reduction. The kiln log shows a slow cool.',
    fileName: 'glaze.txt',
    instructions: 'Tag this as pottery',
    existingTags: [{ tag: 'ceramics', count: 12 }],
  },
];

describe('pooled offline enricher', () => {
  it('gives the in-thread enricher’s fields, provenance included', async () => {
    const pooled = createPooledOfflineEnricher();
    const inThread = createOfflineEnricher();
    try {
      expect(pooled.provider).toBe('local');
      for (const input of inputs) {
        const [a, b] = await Promise.all([pooled.enrich(input), inThread.enrich(input)]);
        expect(a).toEqual(b);
        expect(a.title).not.toBe('');
      }
    } finally {
      await pooled.close();
    }
  }, 60_000);

  it('stops waiting when the file is cancelled, and refuses work after close', async () => {
    const pooled = createPooledOfflineEnricher();
    const ctrl = new AbortController();
    const pending = pooled.enrich(
      { text: 'x '.repeat(20_000), fileName: 'long.txt' },
      { signal: ctrl.signal },
    );
    ctrl.abort(new Error('Processing was cancelled.'));
    await expect(pending).rejects.toThrow(/cancelled/);
    await expect(
      pooled.enrich(inputs[0]!, { signal: AbortSignal.abort(new Error('Processing was cancelled.')) }),
    ).rejects.toThrow(/cancelled/);
    // Still serving after a killed task.
    expect((await pooled.enrich(inputs[1]!)).title).not.toBe('');
    await pooled.close();
    await expect(pooled.enrich(inputs[1]!)).rejects.toThrow();
  }, 60_000);
});
