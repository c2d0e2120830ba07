// Shell entry. Error capture starts before anything else so even a failed bootstrap is shown
// (docs/product.md#startup-error-screen); the async import is module federation's sharing boundary.
import { installStartupErrorCapture, reportStartupError } from './startup/startup-errors.ts';
import { renderStaticStartupError } from './startup/static-startup-error.ts';

installStartupErrorCapture();
import('./bootstrap.tsx').catch((err: unknown) => {
  reportStartupError(err);
  renderStaticStartupError(err);
});
