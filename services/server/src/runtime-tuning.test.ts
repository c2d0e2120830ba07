import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLIBC_TUNING, runsOnGlibc, TUNED_MARK, tunedLaunch, type LaunchedAs } from './runtime-tuning.ts';

const launched = (over: Partial<LaunchedAs> = {}): LaunchedAs => ({
  execPath: '/usr/bin/node',
  execArgv: ['--import', 'x.ts'],
  scriptArgs: ['/app/services/server/src/main.ts', '--target=all'],
  env: { PATH: '/usr/bin' },
  glibc: true,
  ...over,
});

describe('tunedLaunch', () => {
  it('keeps the command line and adds the glibc tunables, marking the process', () => {
    const launch = tunedLaunch(launched());
    expect(launch?.argv).toEqual([
      '/usr/bin/node',
      '--import',
      'x.ts',
      '/app/services/server/src/main.ts',
      '--target=all',
    ]);
    expect(launch?.env).toEqual({
      PATH: '/usr/bin',
      GLIBC_TUNABLES: GLIBC_TUNING.join(':'),
      [TUNED_MARK]: '1',
    });
  });

  it('never re-executes a tuned process, one where tuning is off, or one not on glibc', () => {
    expect(tunedLaunch(launched({ env: { [TUNED_MARK]: '1' } }))).toBeNull();
    expect(tunedLaunch(launched({ env: { KABOODLE_RUNTIME_TUNING: 'off' } }))).toBeNull();
    expect(tunedLaunch(launched({ glibc: false }))).toBeNull();
  });

  it('keeps the operator’s tunables, and their value of the same setting wins', () => {
    const kept = tunedLaunch(launched({ env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' } }));
    expect(kept?.env.GLIBC_TUNABLES).toBe(['glibc.malloc.arena_max=2', ...GLIBC_TUNING].join(':'));
    const theirs = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=65536' };
    expect(tunedLaunch(launched({ env: theirs }))).toBeNull();
  });
});

describe.runIf(process.platform === 'linux')('restartTunedIfNeeded (a real re-execution)', () => {
  const glibc = runsOnGlibc();
  const run = (env: NodeJS.ProcessEnv) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kaboodle-tuning-'));
    try {
      const script = path.join(dir, 'probe.ts');
      const module = JSON.stringify(path.resolve(import.meta.dirname, 'runtime-tuning.ts'));
      writeFileSync(
        script,
        `import { restartTunedIfNeeded } from ${module};
         console.error('started');
         restartTunedIfNeeded();
         console.log(JSON.stringify({ pid: process.pid, tunables: process.env.GLIBC_TUNABLES ?? null, args: process.argv.slice(2) }));`,
      );
      const r = spawnSync(process.execPath, [script, 'a', 'b'], { env: { PATH: process.env.PATH, ...env } });
      expect(r.status, r.stderr.toString()).toBe(0);
      const seen = JSON.parse(r.stdout.toString()) as {
        pid: number;
        tunables: string | null;
        args: string[];
      };
      return { ...seen, spawnedPid: r.pid, starts: r.stderr.toString().match(/started/g)?.length ?? 0 };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it.runIf(glibc)(
    'the process replaces itself once, same PID, with the setting and its own arguments',
    () => {
      const tuned = run({});
      expect(tuned).toMatchObject({ tunables: GLIBC_TUNING.join(':'), args: ['a', 'b'], starts: 2 });
      expect(tuned.pid).toBe(tuned.spawnedPid);
    },
  );

  it('runs once, as launched, when switched off', () => {
    expect(run({ KABOODLE_RUNTIME_TUNING: 'off' })).toMatchObject({ tunables: null, starts: 1 });
  });
});
