// glibc's malloc gives memory back late in a process like this one, and the fix is a setting read
// when the process starts (GLIBC_TUNABLES). The entrypoint applies it itself, so that every way of
// starting Kaboodle gets it (make up, the container, the chart, kustomize, the tests and benches that
// spawn src/main.ts): a server without it re-executes itself once, same PID, with it added
// (process.execve, experimental in Node 24; where it is missing, or not on glibc, the process runs
// as launched).
//
// The setting fixes malloc's mmap threshold at 1 MB. By default, freeing one large block raises the
// threshold to that block's size (up to 32 MB), after which blocks that large come from the arenas
// and stay resident once freed: the index load at start, the worker threads, onnxruntime, LanceDB
// and usearch free many. Measured at 100k items: ~200 MB less RSS at rest, under hybrid search and
// while ingesting, for ~2 % more CPU a search (docs/benchmarks/2026-11-28-runtime-tuning.md).
// A GLIBC_TUNABLES the operator gives that sets the threshold wins; KABOODLE_RUNTIME_TUNING=off
// starts the process as it was launched.

/** glibc tunables added to GLIBC_TUNABLES (name=value). */
export const GLIBC_TUNING: readonly string[] = ['glibc.malloc.mmap_threshold=1048576'];
/** Set in the re-executed process, so that it never re-executes again. */
export const TUNED_MARK = 'KABOODLE_RUNTIME_TUNED';

export interface LaunchedAs {
  execPath: string;
  /** node's own flags (process.execArgv). */
  execArgv: readonly string[];
  /** The script and its arguments (process.argv from index 1). */
  scriptArgs: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Whether the C library is glibc (its tunables mean nothing elsewhere). */
  glibc: boolean;
}

export interface TunedLaunch {
  argv: string[];
  env: NodeJS.ProcessEnv;
}

const settingName = (setting: string): string => setting.split('=')[0]!;

/**
 * The command line and environment to re-execute with, or null when there is nothing to add (already
 * tuned, switched off, not glibc, or every setting given by the operator).
 */
export function tunedLaunch(current: LaunchedAs): TunedLaunch | null {
  const { env } = current;
  if (!current.glibc || env[TUNED_MARK] === '1' || env.KABOODLE_RUNTIME_TUNING === 'off') return null;
  const tunables = (env.GLIBC_TUNABLES ?? '').split(':').filter((t) => t !== '');
  const given = new Set(tunables.map(settingName));
  const added = GLIBC_TUNING.filter((t) => !given.has(settingName(t)));
  if (added.length === 0) return null;
  return {
    argv: [current.execPath, ...current.execArgv, ...current.scriptArgs],
    env: { ...env, GLIBC_TUNABLES: [...tunables, ...added].join(':'), [TUNED_MARK]: '1' },
  };
}

/** Whether this process's C library is glibc (Node's report names its version only then). */
export function runsOnGlibc(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return typeof report?.header?.glibcVersionRuntime === 'string';
}

/**
 * Re-executes this process with the tuning when it lacks it (does not return then). Returns when
 * there is nothing to add, or where a process cannot replace itself (not Linux, or execve refused:
 * the process then runs untuned, with a warning).
 */
export function restartTunedIfNeeded(): void {
  if (process.platform !== 'linux' || typeof process.execve !== 'function') return;
  // before the report below, which takes a few ms: the re-executed process ends here
  if (process.env[TUNED_MARK] === '1' || process.env.KABOODLE_RUNTIME_TUNING === 'off') return;
  const launch = tunedLaunch({
    execPath: process.execPath,
    execArgv: process.execArgv,
    scriptArgs: process.argv.slice(1),
    env: process.env,
    glibc: runsOnGlibc(),
  });
  if (!launch) return;
  try {
    process.execve(process.execPath, launch.argv, launch.env);
  } catch (err) {
    process.emitWarning(`running without the memory setting: ${(err as Error).message}`, {
      code: 'KABOODLE_RUNTIME_TUNING',
    });
  }
}
