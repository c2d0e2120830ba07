// The `kaboodle` command's bad input: one clear line per problem, exit status 2, no stack trace.
import { describe, expect, it } from 'vitest';
import { runKaboodle } from '../support/kaboodle-process.ts';

const noEngines = {
  DATABASE_URL: '',
  KAFKA_BROKERS: '',
  S3_ENDPOINT: '',
  AUTH_URL: '',
  PROCESSING_GRPC_ADDRESS: '',
};
const lines = (s: string) => s.split('\n').filter((l) => l.startsWith('kaboodle: '));
const noStack = (s: string) => expect(s).not.toMatch(/\n\s+at /);

describe('kaboodle entrypoint', () => {
  it('rejects an unknown target, naming it and the valid ones', async () => {
    const r = await runKaboodle(['--target=all,bogus'], noEngines);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      'kaboodle: --target: unknown target "bogus" (choose from auth, ingestion, processing, catalogue, search, web, all)',
    ]);
    noStack(r.stderr);
  });

  it('lists every configuration problem at once, secrets never echoed', async () => {
    const r = await runKaboodle(['--target=ingestion'], {
      ...noEngines,
      PORT: 'abc',
      DATABASE_URL: 'mysql://root:hunter2@db/x',
      LOG_LEVEL: 'loud',
    });
    expect(r.code).toBe(2);
    const problems = lines(r.stderr);
    expect(problems).toEqual(
      expect.arrayContaining([
        'kaboodle: PORT: must be an integer between 0 and 65535, got "abc"',
        expect.stringMatching(/^kaboodle: DATABASE_URL: must be a URL with scheme postgres or postgresql/),
        expect.stringMatching(/^kaboodle: LOG_LEVEL: must be one of /),
        expect.stringMatching(/^kaboodle: KAFKA_BROKERS: is required when --target runs ingestion/),
        expect.stringMatching(/^kaboodle: AUTH_URL: is required/),
      ]),
    );
    expect(problems).toHaveLength(5);
    expect(r.stderr).not.toContain('hunter2');
    noStack(r.stderr);
  });

  it('refuses to start when an engine URL does not answer, one line per engine', async () => {
    const r = await runKaboodle(['--target=all'], {
      ...noEngines,
      DATABASE_URL: 'postgres://kaboodle:secret@127.0.0.1:1/kaboodle',
      S3_ENDPOINT: 'http://127.0.0.1:2',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
    });
    expect(r.code).toBe(2);
    const problems = lines(r.stderr);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^kaboodle: DATABASE_URL: postgres:\/\/\*\*\*@127\.0\.0\.1:1\/kaboodle does not answer: /,
    );
    expect(problems[1]).toMatch(/^kaboodle: S3_ENDPOINT: http:\/\/127\.0\.0\.1:2 does not answer: /);
    expect(r.stderr).not.toContain('secret@');
  });

  it('prints usage for --help and the version for --version', async () => {
    expect((await runKaboodle(['--help'])).stdout).toMatch(/^Usage: kaboodle --target=/);
    const v = await runKaboodle(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
