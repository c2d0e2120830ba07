// Catches every uncaught error and unhandled rejection from the first line of the app on
// (the startup error screen: docs/product.md#startup-error-screen), so even a failure before React mounts is
// shown.

export type StartupErrorListener = (error: unknown) => void;

const listeners = new Set<StartupErrorListener>();
let first: { error: unknown } | null = null;

/** Noise browsers raise as window errors that do not mean the app broke. */
export function isBenignError(error: unknown, message?: string): boolean {
  const text = message ?? (error instanceof Error ? error.message : String(error ?? ''));
  return /ResizeObserver loop/.test(text);
}

const claimers: StartupErrorListener[] = [];

/**
 * While the loading screen is up it handles errors itself (docs/product.md#states: "attempting recovery"), so
 * they do not also replace the app with the startup error screen. Returns the release function.
 */
export function claimErrors(handler: StartupErrorListener): () => void {
  claimers.push(handler);
  return () => {
    const i = claimers.indexOf(handler);
    if (i !== -1) claimers.splice(i, 1);
  };
}

export function reportStartupError(error: unknown): void {
  if (isBenignError(error)) return;
  const claimer = claimers[claimers.length - 1];
  if (claimer) {
    claimer(error);
    return;
  }
  first ??= { error };
  for (const listener of listeners) listener(error);
}

/** Subscribe; a listener added late still hears the first error that happened before it. */
export function onStartupError(listener: StartupErrorListener): () => void {
  listeners.add(listener);
  if (first) listener(first.error);
  return () => listeners.delete(listener);
}

export function installStartupErrorCapture(target: Window = window): void {
  target.addEventListener('error', (event) => {
    if (isBenignError(event.error, event.message)) return;
    reportStartupError(event.error ?? new Error(event.message || 'Unknown error occurred'));
  });
  target.addEventListener('unhandledrejection', (event) => reportStartupError(event.reason));
}

export function errorDetails(error: unknown): string {
  if (error instanceof Error) return error.stack || `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error, null, 2) ?? 'Unknown error occurred';
  } catch {
    return 'Unknown error occurred';
  }
}
