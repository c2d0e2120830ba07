// Limits are validated once with every problem listed; env keys map onto them.
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACTION_LIMITS, resolveLimits } from './limits.ts';
import { extractionConfig, extractionOptionsFromConfig } from './extraction-config.ts';

describe('resolveLimits', () => {
  it('merges overrides onto the defaults, ignoring undefined', () => {
    expect(resolveLimits({ maxPages: 5, timeoutMs: undefined })).toEqual({
      ...DEFAULT_EXTRACTION_LIMITS,
      maxPages: 5,
    });
    expect(resolveLimits({ maxOcrPages: 0 }).maxOcrPages).toBe(0);
  });
  it('lists every bad field at once', () => {
    expect(() => resolveLimits({ maxPages: 0, timeoutMs: Number.NaN, maxOcrPages: -1 })).toThrow(
      'invalid extraction limits: timeoutMs must be a positive number (got NaN); maxPages must be a positive number (got 0); maxOcrPages must be a non-negative number (got -1)',
    );
  });
});

describe('extractionConfig', () => {
  it('runs with no configuration at all', () => {
    const options = extractionOptionsFromConfig(extractionConfig.parse({}));
    expect(options.threads).toBe(1);
    expect(resolveLimits(options.limits)).toEqual(DEFAULT_EXTRACTION_LIMITS);
  });
  it('reads durations and numbers, and reports every problem', () => {
    const config = extractionConfig.parse({
      EXTRACT_TIMEOUT: '45s',
      EXTRACT_THREADS: '2',
      EXTRACT_MAX_OCR_PAGES: '0',
    });
    expect(extractionOptionsFromConfig(config)).toMatchObject({
      threads: 2,
      limits: { timeoutMs: 45_000, maxOcrPages: 0 },
    });
    expect(() => extractionConfig.parse({ EXTRACT_THREADS: '0', EXTRACT_TIMEOUT: 'soon' })).toThrow(
      /invalid configuration \(2 problems\):\n.*EXTRACT_THREADS.*\n.*EXTRACT_TIMEOUT/,
    );
  });
});
