// The pipeline's throughput keys: defaults fit a 2-core machine, and an out-of-range value is
// refused at start with the key named (not clamped into something the operator did not ask for).
import { describe, expect, it } from 'vitest';
import { USE_LITE_BATCH_CHARS } from '../embed/use-lite-embedder.ts';
import { pipelineConfig } from './pipeline-config.ts';

describe('pipeline config', () => {
  it('defaults to the embedder’s own call size, and takes a smaller one for quicker queries', () => {
    expect(pipelineConfig.parse({}).EMBED_BATCH_CHARS).toBe(USE_LITE_BATCH_CHARS);
    expect(pipelineConfig.parse({ EMBED_BATCH_CHARS: '480' }).EMBED_BATCH_CHARS).toBe(480);
  });

  it('refuses a call size too small to hold a title', () => {
    expect(() => pipelineConfig.parse({ EMBED_BATCH_CHARS: '50' })).toThrow(/EMBED_BATCH_CHARS/);
  });
});
