// The loading screen's clock (docs/product.md#states): stage tables for desktop and mobile, the forced
// completion on mobile, the max-load timeout fallback and error recovery. Free of React so it is unit-tested.
// Two paces: the demo runs the spec's stage durations; after a sign-in the stages follow the real work
// (session, first data load, the first screen's code), each shown for a short beat, so the animation never
// holds a person longer than the work plus that beat.

export interface LoadingStage {
  progress: number;
  message: string;
  duration: number;
  /** Stage effects: the chime and mascot reveal at 60, the sigh at 100. */
  effect?: 'chime' | 'sigh';
}

export const DESKTOP_STAGES: readonly LoadingStage[] = [
  { progress: 0, message: 'Initializing clockwork mechanisms...', duration: 1000 },
  { progress: 20, message: 'Assembling Art Deco gears...', duration: 1500 },
  { progress: 40, message: 'Calibrating pendulum oscillations...', duration: 1200 },
  { progress: 60, message: 'Activating neural networks...', duration: 1800, effect: 'chime' },
  { progress: 80, message: 'Synchronizing intelligence matrix...', duration: 1000 },
  { progress: 100, message: 'Kaboodle is ready!', duration: 800, effect: 'sigh' },
];

export const MOBILE_STAGES: readonly LoadingStage[] = [
  { progress: 0, message: 'Waking up Kaboodle...', duration: 1000 },
  { progress: 50, message: 'Intelligence activated!', duration: 2000, effect: 'chime' },
  { progress: 100, message: 'Ready to assist!', duration: 1000, effect: 'sigh' },
];

export const MOBILE_BREAKPOINT_PX = 768;
export const MOBILE_FORCE_COMPLETE_MS = 4000;
export const DEFAULT_MAX_LOAD_MS = 10_000;
export const TIMEOUT_MESSAGE = 'Loading timeout - proceeding anyway...';
export const TIMEOUT_COMPLETE_DELAY_MS = 1000;
export const ERROR_MESSAGE = 'Error detected - attempting recovery...';
export const ERROR_COMPLETE_DELAY_MS = 2000;
export const UNKNOWN_ERROR = 'Unknown error occurred';
/** The mascot appears once progress reaches this (the 60 % stage). */
export const MASCOT_REVEAL_AT = 60;
/** Work-paced: how long each stage shows at least (readable as a flicker of progress, not a wait). */
export const WORK_STAGE_BEAT_MS = 90;
/** Work-paced: how long "… is ready!" stays before the screen lifts. */
export const WORK_LAST_BEAT_MS = 250;

export interface LoadingSnapshot {
  stageIndex: number;
  progress: number;
  message: string;
  mascotVisible: boolean;
  status: 'running' | 'timeout' | 'error' | 'complete';
  /** Text of the error that interrupted loading, if any. */
  error: string | null;
}

export interface LoadingSequenceOptions {
  mobile: boolean;
  maxLoadMs?: number;
  onUpdate: (snapshot: LoadingSnapshot) => void;
  onEffect?: (effect: 'chime' | 'sigh') => void;
  onComplete: () => void;
  timers?: {
    setTimeout: (fn: () => void, ms: number) => unknown;
    clearTimeout: (handle: unknown) => void;
  };
  /**
   * 'timed' (the demo): each stage for its spec duration. 'work': a stage is entered only once the
   * work reported through `work()` has reached its progress, and stays a short beat.
   */
  pace?: 'timed' | 'work';
}

export interface LoadingSequence {
  start(): void;
  /** Work-paced: how far the real work is (0–100); stages up to it may be shown. */
  work(progress: number): void;
  /** Uncaught error or unhandled rejection while loading: show recovery, complete after 2 s. */
  fail(error: unknown): void;
  dispose(): void;
}

export function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return UNKNOWN_ERROR;
}

export function createLoadingSequence(options: LoadingSequenceOptions): LoadingSequence {
  const stages = options.mobile ? MOBILE_STAGES : DESKTOP_STAGES;
  const maxLoadMs = options.maxLoadMs ?? DEFAULT_MAX_LOAD_MS;
  const timers = options.timers ?? {
    setTimeout: (fn: () => void, ms: number) => globalThis.setTimeout(fn, ms),
    clearTimeout: (h: unknown) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  };
  const handles = new Set<unknown>();
  let snapshot: LoadingSnapshot = {
    stageIndex: 0,
    progress: stages[0]!.progress,
    message: stages[0]!.message,
    mascotVisible: false,
    status: 'running',
    error: null,
  };
  let finished = false;
  const paced = options.pace === 'work';
  let workDone = 0;
  /** Work-paced: the current stage has had its beat and waits for the work. */
  let waiting = false;

  const later = (fn: () => void, ms: number) => {
    const h = timers.setTimeout(() => {
      handles.delete(h);
      fn();
    }, ms);
    handles.add(h);
  };
  const clearAll = () => {
    for (const h of handles) timers.clearTimeout(h);
    handles.clear();
  };
  const update = (patch: Partial<LoadingSnapshot>) => {
    snapshot = { ...snapshot, ...patch };
    snapshot.mascotVisible = snapshot.mascotVisible || snapshot.progress >= MASCOT_REVEAL_AT;
    options.onUpdate(snapshot);
  };
  const complete = () => {
    if (finished) return;
    finished = true;
    clearAll();
    update({ status: 'complete' });
    options.onComplete();
  };
  const enterStage = (index: number) => {
    const stage = stages[index];
    if (!stage || finished) return;
    waiting = false;
    update({ stageIndex: index, progress: stage.progress, message: stage.message });
    if (stage.effect) options.onEffect?.(stage.effect);
    const last = index + 1 >= stages.length;
    if (!paced) {
      // The last stage's duration is the pause before the completion callback.
      later(() => (last ? complete() : enterStage(index + 1)), stage.duration);
      return;
    }
    later(
      () => {
        if (last) complete();
        else if (workDone >= stages[index + 1]!.progress) enterStage(index + 1);
        else waiting = true;
      },
      last ? WORK_LAST_BEAT_MS : WORK_STAGE_BEAT_MS,
    );
  };
  /** Stop the normal clock and finish on a fallback path (timeout or error). */
  const interrupt = (patch: Partial<LoadingSnapshot>, delayMs: number) => {
    if (finished) return;
    clearAll();
    update(patch);
    later(complete, delayMs);
  };

  return {
    work(progress: number) {
      workDone = Math.max(workDone, progress);
      const next = stages[snapshot.stageIndex + 1];
      if (waiting && !finished && snapshot.status === 'running' && next && workDone >= next.progress)
        enterStage(snapshot.stageIndex + 1);
    },
    start() {
      enterStage(0);
      later(
        () =>
          interrupt(
            { status: 'timeout', message: TIMEOUT_MESSAGE, progress: 100, stageIndex: stages.length - 1 },
            TIMEOUT_COMPLETE_DELAY_MS,
          ),
        maxLoadMs,
      );
      if (options.mobile) later(complete, MOBILE_FORCE_COMPLETE_MS);
    },
    fail(error: unknown) {
      if (snapshot.status === 'error') return;
      interrupt(
        { status: 'error', message: ERROR_MESSAGE, error: errorText(error) },
        ERROR_COMPLETE_DELAY_MS,
      );
    },
    dispose() {
      finished = true;
      clearAll();
    },
  };
}
