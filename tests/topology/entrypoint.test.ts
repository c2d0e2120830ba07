// The `kaboodle` command's bad input: one clear line per problem, exit status 2, no stack trace; and a
// server runs with the memory setting of services/server/src/runtime-tuning.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runKaboodle, startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';

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

  it('refuses NODE_ENV=production without AUTH_KEY_SECRET, with one clear line', async () => {
    const r = await runKaboodle(['--target=all'], {
      ...noEngines,
      NODE_ENV: 'production',
      AUTH_KEY_SECRET: '',
    });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([
      'kaboodle: AUTH_KEY_SECRET: is required when NODE_ENV=production (it seals the token-signing keys at rest; at least 16 random characters)',
    ]);
    noStack(r.stderr);
    // with the secret, that problem is gone (a bad port stops the start right after the check)
    const withSecret = await runKaboodle(['--target=all'], {
      ...noEngines,
      NODE_ENV: 'production',
      AUTH_KEY_SECRET: 'a-long-random-secret-value',
      PORT: 'abc',
    });
    expect(lines(withSecret.stderr)).toEqual([
      'kaboodle: PORT: must be an integer between 0 and 65535, got "abc"',
    ]);
    // a process without auth holds no signing keys: not required there
    const search = await runKaboodle(['--target=processing'], {
      ...noEngines,
      NODE_ENV: 'production',
      KAFKA_BROKERS: '127.0.0.1:1',
      PORT: 'abc',
    });
    expect(lines(search.stderr).join('\n')).not.toContain('AUTH_KEY_SECRET');
  });

  it('kaboodle admin: a wrong command line is exit 2 with the usage', async () => {
    for (const args of [
      ['admin'],
      ['admin', 'promote', 'a@example.com'],
      ['admin', 'grant'],
      ['admin', 'grant', 'nobody'],
    ]) {
      const r = await runKaboodle(args, noEngines);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      noStack(r.stderr);
    }
    expect(lines((await runKaboodle(['admin'], noEngines)).stderr)).toEqual([
      'kaboodle: usage: kaboodle admin grant|revoke <email> [--target=<targets>]',
    ]);
    const other = await runKaboodle(['frobnicate'], noEngines);
    expect(other.code).toBe(2);
    expect(lines(other.stderr)[0]).toBe('kaboodle: unknown command "frobnicate"');
    const noAuth = await runKaboodle(['admin', 'grant', 'a@example.com', '--target=search'], noEngines);
    expect(lines(noAuth.stderr)).toEqual([
      'kaboodle: --target=search does not run auth, whose database holds the roles',
    ]);
  });

  it('prints usage for --help and the version for --version', async () => {
    const help = (await runKaboodle(['--help'])).stdout;
    expect(help).toMatch(/^Usage: kaboodle --target=/);
    expect(help).toContain('kaboodle admin grant|revoke <email>');
    const v = await runKaboodle(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.runIf(process.platform === 'linux')(
    'a server runs with the memory setting, in the process that was started',
    async () => {
      const data = tempDataDir();
      const app = await startKaboodleProcess({
        target: 'all',
        env: { ...noEngines, KABOODLE_DATA_DIR: data.dir, GLIBC_TUNABLES: '' },
      });
      try {
        const environ = readFileSync(`/proc/${app.child.pid!}/environ`, 'utf8').split('\0');
        const report = process.report.getReport() as { header: { glibcVersionRuntime?: string } };
        if (report.header.glibcVersionRuntime) {
          expect(environ).toContain('KABOODLE_RUNTIME_TUNED=1');
          expect(environ).toContain('GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1048576');
        } else expect(environ).not.toContain('KABOODLE_RUNTIME_TUNED=1');
      } finally {
        await app.stop();
        data.remove();
      }
    },
    150_000,
  );
});
