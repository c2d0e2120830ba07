// Shell entry. Error capture starts before anything else so even a failed bootstrap is shown
// (docs/product.md#startup-error-screen); the async import is module federation's sharing boundary.
import { installStartupErrorCapture, reportStartupError } from './startup/startup-errors.ts';
import { renderStaticStartupError } from './startup/static-startup-error.ts';
import { applyRuntimeRemotes, SHELL_REMOTES } from './startup/runtime-remotes.ts';

installStartupErrorCapture();
// Remotes' manifest URLs from the server first (versioned, per deployment), then the app.
applyRuntimeRemotes(SHELL_REMOTES)
  .then(() => import('./bootstrap.tsx'))
  .catch((err: unknown) => {
    reportStartupError(err);
    renderStaticStartupError(err);
  });
