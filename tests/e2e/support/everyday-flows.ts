// Steps for the everyday-use browser tests (issue 18): signing in through the dialog and timing it,
// watching every frame for a moment when the page shows through between overlays, following the
// requests a page leaves open, and reading what a person sees (visible focus, layout rows).
import type { Page } from 'playwright-core';
import { fillRegistration, fillSignIn, openAuthDialog, type Person } from './shell-flows.ts';

/** The dashboard is on screen and nothing covers it (no dialog, no loading screen). */
export async function waitUntilDashboardUsable(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(
    () =>
      location.pathname === '/dashboard' &&
      document.querySelector('[role="dialog"]') === null &&
      document.querySelector('.kb-loading') === null &&
      document.querySelector('h1')?.textContent === 'Dashboard',
    undefined,
    { timeout: timeoutMs, polling: 50 },
  );
}

/** Registers through the landing's dialog; resolves with ms from the click to a usable dashboard. */
export async function signUpThroughDialog(page: Page, person: Person): Promise<number> {
  await openAuthDialog(page);
  await fillRegistration(page, person);
  const started = Date.now();
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  await waitUntilDashboardUsable(page);
  return Date.now() - started;
}

/** Signs in through the landing's dialog; resolves with ms from the click to a usable dashboard. */
export async function signInThroughDialog(page: Page, person: Person): Promise<number> {
  await openAuthDialog(page);
  await fillSignIn(page, person.email, person.password);
  const started = Date.now();
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await waitUntilDashboardUsable(page);
  return Date.now() - started;
}

/**
 * From now on, every animation frame notes whether the page shows through: no dialog, no opaque
 * loading screen and no dashboard yet (i.e. the landing left bare). Returns a reader of those frames.
 */
export async function watchForBareFrames(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __kbBare: string[]; __kbWatch: boolean };
    w.__kbBare = [];
    w.__kbWatch = true;
    const t0 = performance.now();
    // shown = laid out, not display:none (React hides a suspended subtree that way) and not see-through
    const shown = (el: Element | null) =>
      el !== null && el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const frame = () => {
      if (!w.__kbWatch) return;
      const dialog = shown(document.querySelector('[role="dialog"]'));
      const loading = document.querySelector<HTMLElement>('.kb-loading');
      const opaque = shown(loading) && Number(getComputedStyle(loading!).opacity) >= 0.95;
      const dashboard = document.querySelector('h1')?.textContent === 'Dashboard';
      if (!dialog && !opaque && !dashboard) {
        w.__kbBare.push(`${Math.round(performance.now() - t0)} ms on ${location.pathname}`);
      }
      if (dashboard && !dialog && !loading) w.__kbWatch = false;
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  return () => page.evaluate(() => (window as unknown as { __kbBare: string[] }).__kbBare);
}

/** From now on, notes whether the loading screen ever appears; returns a reader of that. */
export async function watchForLoadingScreen(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => {
    const w = window as unknown as { __kbSawLoading: boolean };
    w.__kbSawLoading = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="loading-screen"]')) w.__kbSawLoading = true;
    }).observe(document.body, { subtree: true, childList: true });
  });
  return () => page.evaluate(() => (window as unknown as { __kbSawLoading: boolean }).__kbSawLoading);
}

/** Requests to a path that the page started, with when they ended (null: still open). */
export function followRequests(page: Page, pathname: string): () => { ms: number | null }[] {
  const seen = new Map<object, { start: number; end: number | null }>();
  const matches = (url: string) => new URL(url).pathname === pathname;
  page.on('request', (r) => {
    if (matches(r.url())) seen.set(r, { start: Date.now(), end: null });
  });
  const ended = (r: object) => {
    const entry = seen.get(r);
    if (entry && entry.end === null) entry.end = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return () => [...seen.values()].map((e) => ({ ms: e.end === null ? null : e.end - e.start }));
}

/** The focused element draws a visible focus indicator (an outline or a ring), described if not. */
export async function focusIndicator(page: Page): Promise<{ visible: boolean; what: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { visible: false, what: 'nothing focused' };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
    const ring = style.boxShadow !== 'none' && style.boxShadow !== '';
    const label =
      el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.getAttribute('name') ?? '';
    return {
      visible: outline || ring,
      what: `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''} "${label}"`,
    };
  });
}
