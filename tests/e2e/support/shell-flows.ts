// What a person does in the shell, as reusable steps for the browser tests.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from './kaboodle-server.ts';

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-output', 'screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  // Finite animations (fades, rises) are fast-forwarded so the picture shows the settled screen.
  await page.screenshot({ path: file, fullPage: false, animations: 'disabled' });
  return file;
}

export interface Person {
  name: string;
  email: string;
  password: string;
}

export function newPerson(tag: string): Person {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return { name: `Ada ${tag}`, email: `ada.${tag}.${id}@example.com`, password: `Correct-Horse-${id}` };
}

/** Opens the auth dialog from the landing page's Launch button. */
export async function openAuthDialog(page: Page): Promise<void> {
  await page
    .getByRole('button', { name: /^Launch/i })
    .first()
    .click();
  await page.getByRole('dialog', { name: 'Welcome to Kaboodle' }).waitFor();
}

export async function fillRegistration(page: Page, person: Person, confirm = person.password): Promise<void> {
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByRole('dialog', { name: 'Create Account' }).waitFor();
  await page.getByLabel('Name').fill(person.name);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Confirm password').fill(confirm);
}

export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('button', { name: 'Continue with Email' }).click();
  await page.getByRole('dialog', { name: 'Sign In' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
}

/**
 * After a sign-in: on the dashboard with nothing covering it. The loading screen shows on a first
 * visit only (a repeat visit and reduced motion skip it), so this waits for the outcome, not for it.
 */
/**
 * Waits until a dialog titled `title` has been on screen, however briefly. Locator.waitFor polls
 * with a growing interval (up to a second), so it misses a dialog that is up for 450 ms (the
 * sign-in's "You are in!"); this checks every animation frame.
 */
export async function dialogShown(page: Page, title: string, timeout = 60_000): Promise<void> {
  try {
    await page.waitForFunction(
      (wanted) =>
        [...document.querySelectorAll('[role="dialog"][aria-labelledby]')].some(
          (d) =>
            document.getElementById(d.getAttribute('aria-labelledby') ?? '')?.textContent?.trim() === wanted,
        ),
      title,
      { timeout, polling: 'raf' },
    );
  } catch (err) {
    // say what was on screen instead, so a CI failure explains itself
    const seen = await page
      .evaluate(() =>
        [...document.querySelectorAll('[role="dialog"], [role="alert"], h1')]
          .map((e) => `${e.getAttribute('role') ?? e.tagName}: ${(e.textContent ?? '').slice(0, 300)}`)
          .join(' | '),
      )
      .catch((e: unknown) => `(page not readable: ${String(e)})`);
    throw new Error(`no dialog titled "${title}" within ${timeout} ms at ${page.url()}; on screen: ${seen}`, {
      cause: err,
    });
  }
}

export async function waitForLoadingScreenToFinish(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      location.pathname === '/dashboard' &&
      document.querySelector('[role="dialog"]') === null &&
      document.querySelector('.kb-loading') === null,
    undefined,
    { timeout: 30_000, polling: 50 },
  );
}

/** The loading screen of the Demo (no sign-in, no navigation): it shows, runs its stages and lifts. */
export async function waitForDemoToFinish(page: Page): Promise<void> {
  await page.getByTestId('loading-screen').waitFor({ state: 'attached', timeout: 30_000 });
  await page.getByTestId('loading-screen').waitFor({ state: 'detached', timeout: 30_000 });
}

export async function signOut(page: Page): Promise<void> {
  await page.locator('.kb-user-menu__trigger').click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/**
 * Records every message the loading screen shows from now on (a MutationObserver in the page),
 * so a test can check the whole stage sequence rather than sample it.
 */
export async function recordLoadingMessages(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __kbLoadingMessages: string[] };
    w.__kbLoadingMessages = [];
    const note = () => {
      const text = document.querySelector('[data-testid="loading-message"]')?.textContent ?? null;
      const list = w.__kbLoadingMessages;
      if (text && list[list.length - 1] !== text) list.push(text);
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  return () =>
    page.evaluate(() => (window as unknown as { __kbLoadingMessages: string[] }).__kbLoadingMessages);
}
