// Everyday use (issue 18): signing in is quick. The dialog's progress and the loading screen after it
// follow the real work (the answer, the first data load, the dashboard's code) instead of holding a
// person ~15 s; nothing bare shows between them on a slow phone; a repeat visit and reduced motion
// skip the loading screen; and a signed-out page leaves no refresh request hanging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from './support/browser.ts';
import {
  followRequests,
  signInThroughDialog,
  signUpThroughDialog,
  waitUntilDashboardUsable,
  watchForBareFrames,
  watchForLoadingScreen,
} from './support/everyday-flows.ts';
import { missingPrerequisite, startKaboodle, type KaboodleServer } from './support/kaboodle-server.ts';
import {
  fillRegistration,
  newPerson,
  openAuthDialog,
  recordLoadingMessages,
  screenshot,
  signOut,
} from './support/shell-flows.ts';

const missing = missingPrerequisite();
if (missing) console.warn(`e2e everyday sign-in suite skipped: ${missing}`);

/** Generous for a loaded 2-core CI machine; the old flow took about 15 s. */
const SIGN_IN_BUDGET_MS = 6_000;

describe.skipIf(missing !== null)('everyday use: signing in', () => {
  let server: KaboodleServer;
  let browser: Browser;
  let page: Page;
  const person = newPerson('quick');
  let refreshes: () => { ms: number | null }[];

  beforeAll(async () => {
    server = await startKaboodle();
    browser = await launchBrowser({ width: 1440, height: 900 });
    page = browser.page;
    refreshes = followRequests(page, '/api/auth/refresh');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('leaves no refresh request open on a signed-out page', async () => {
    await page.goto(`${server.url}/`);
    await page.getByTestId('welcome').waitFor();
    await page.goto(`${server.url}/about`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForTimeout(2_000);
    const seen = refreshes();
    expect(seen.length).toBeGreaterThan(0); // the signed-out page did try one
    // each refused refresh is over at once, not pending until the 30 s timeout
    for (const r of seen) {
      expect(r.ms).not.toBeNull();
      expect(r.ms!).toBeLessThan(2_000);
    }
  });

  it('registers a newcomer to a usable dashboard within seconds, through every stage of the loading screen', async () => {
    await page.goto(`${server.url}/`);
    const stages = await recordLoadingMessages(page);
    const took = await signUpThroughDialog(page, person);
    console.info(`sign-up, first visit: ${took} ms from the click to a usable dashboard`);
    expect(took).toBeLessThan(SIGN_IN_BUDGET_MS);
    // the spec's steps and texts are kept, each shown as the work passes it
    expect(await stages()).toEqual([
      'Initializing clockwork mechanisms...',
      'Assembling Art Deco gears...',
      'Calibrating pendulum oscillations...',
      'Activating neural networks...',
      'Synchronizing intelligence matrix...',
      'Kaboodle is ready!',
    ]);
    await screenshot(page, 'everyday-signed-in-1440');
  });

  it('skips the loading screen on a repeat visit', async () => {
    await signOut(page);
    await page.getByTestId('welcome').waitFor();
    const sawLoading = await watchForLoadingScreen(page);
    const took = await signInThroughDialog(page, person);
    console.info(`sign-in, repeat visit: ${took} ms from the click to a usable dashboard`);
    expect(took).toBeLessThan(SIGN_IN_BUDGET_MS);
    expect(await sawLoading()).toBe(false);
  });

  it('skips the loading screen for a person who asks for reduced motion', async () => {
    const fresh = await launchBrowser({ width: 1440, height: 900 });
    try {
      await fresh.page.emulateMedia({ reducedMotion: 'reduce' });
      await fresh.page.goto(`${server.url}/`);
      await fresh.page.getByTestId('welcome').waitFor();
      const sawLoading = await watchForLoadingScreen(fresh.page);
      await signInThroughDialog(fresh.page, person);
      expect(await sawLoading()).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('on a slow phone, covers the page from the dialog to the dashboard: no bare landing in between', async () => {
    const phone = await launchBrowser({ width: 390, height: 844 });
    try {
      const p = phone.page;
      await p.goto(`${server.url}/`);
      await p.getByTestId('welcome').waitFor();
      await openAuthDialog(p);
      await fillRegistration(p, newPerson('phone'));
      // a phone's network: every script fetched from now on takes 1.5 s to arrive
      await p.route(/\.js$/, async (route) => {
        await new Promise((r) => setTimeout(r, 1_500));
        await route.continue();
      });
      const bare = await watchForBareFrames(p);
      const started = Date.now();
      await p.getByRole('button', { name: 'Create Account', exact: true }).click();
      await waitUntilDashboardUsable(p);
      const took = Date.now() - started;
      console.info(`sign-up on a slow phone: ${took} ms from the click to a usable dashboard`);
      expect(await bare()).toEqual([]);
      expect(took).toBeLessThan(SIGN_IN_BUDGET_MS + 3_000); // the slow scripts are real work too
      await screenshot(p, 'everyday-signed-in-390');
    } finally {
      await phone.close();
    }
  });

  it('kept the page free of script errors', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});
