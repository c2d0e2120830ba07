// A keyboard-only journey (issue 18): sign up, upload, find, open, edit and sign out with Tab, Enter
// and typing alone, every focus stop visibly marked, and the dialogs keeping focus inside while open
// and giving it back when closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from './support/browser.ts';
import { waitUntilDashboardUsable } from './support/everyday-flows.ts';
import { newWalk, tabTo, type KeyboardWalk } from './support/keyboard.ts';
import { missingPrerequisite, startKaboodle, type KaboodleServer } from './support/kaboodle-server.ts';
import { newPerson } from './support/shell-flows.ts';

const missing = missingPrerequisite();
if (missing) console.warn(`e2e keyboard journey suite skipped: ${missing}`);

const NOTE = {
  name: 'harbour-ropes.txt',
  mimeType: 'text/plain',
  buffer: Buffer.from(
    'Harbour Rope Knots\nBy Ines Carvalho, 2021\n\nThe bowline and the sheet bend hold a mooring line on a ' +
      'tidal harbour wall; a rolling hitch takes the strain off a jammed winch.\n',
  ),
};

/** Whether focus is inside the open dialog named `name`. */
const focusInDialog = (page: Page, name: string) =>
  page.evaluate((n) => {
    const dialogs = [...document.querySelectorAll('[role="dialog"]')];
    const d = dialogs.find((x) => {
      const by = x.getAttribute('aria-labelledby');
      const label = x.getAttribute('aria-label') ?? (by ? document.getElementById(by)?.textContent : '');
      return label?.trim() === n;
    });
    return d !== undefined && d.contains(document.activeElement);
  }, name);

describe.skipIf(missing !== null)('everyday use with the keyboard only', () => {
  let server: KaboodleServer;
  let browser: Browser;
  let page: Page;
  const walk: KeyboardWalk = newWalk();
  const person = newPerson('keys');

  beforeAll(async () => {
    server = await startKaboodle();
    browser = await launchBrowser({ width: 1440, height: 900 });
    page = browser.page;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs up from the landing page; the dialog keeps focus inside', async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
    await tabTo(page, walk, /^Launch/i);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Welcome to Kaboodle' }).waitFor();
    // focus moved into the dialog, and twenty Tabs never leave it
    await expect.poll(() => focusInDialog(page, 'Welcome to Kaboodle')).toBe(true);
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog(page, 'Welcome to Kaboodle')).toBe(true);
    }
    await tabTo(page, walk, /^Create an account$/);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Create Account' }).waitFor();
    for (const [field, value] of [
      [/^Name/, person.name],
      [/^Email/, person.email],
      [/^Password/, person.password],
      [/^Confirm password/, person.password],
    ] as const) {
      await tabTo(page, walk, field, { max: 12 });
      await page.keyboard.type(value);
    }
    await tabTo(page, walk, /^Create Account$/, { max: 12 });
    await page.keyboard.press('Enter');
    await waitUntilDashboardUsable(page);
  }, 60_000);

  it('uploads a note from the Processing Hub', async () => {
    await tabTo(page, walk, /^Process$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Processing Hub' }).waitFor();
    // Enter on "Choose files" opens the system's picker (the browser's, not ours): what is ours is
    // that it clicks the input; the file then goes in through it as the picker would hand it over.
    const input = page.getByTestId('file-input');
    await input.evaluate((el) =>
      el.addEventListener('click', (e) => {
        (window as unknown as { picked: number }).picked = 1;
        e.preventDefault();
      }),
    );
    await tabTo(page, walk, /^Choose files$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => (window as unknown as { picked?: number }).picked)).toBe(1);
    await input.setInputFiles([NOTE]);
    await tabTo(page, walk, /^Process 1 file$/);
    await page.keyboard.press('Enter');
    await page
      .locator(`[data-testid="queue-item"][data-name="${NOTE.name}"] [data-status="completed"]`)
      .first()
      .waitFor({ timeout: 120_000 });
  }, 150_000);

  it('finds the note in the vault, opens it and edits its title', async () => {
    await tabTo(page, walk, /^Documents$/, { back: true });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Document Vault' }).waitFor();
    await tabTo(page, walk, /^Search documents/);
    await page.keyboard.type('bowline');
    await page.getByTestId('document-row').first().waitFor({ timeout: 30_000 });
    await tabTo(page, walk, /^Harbour Rope Knots$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Harbour Rope Knots' }).waitFor({ timeout: 30_000 });
    await tabTo(page, walk, /^Edit metadata$/);
    await page.keyboard.press('Enter');
    await tabTo(page, walk, /^Title/, { max: 10 });
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Harbour Rope Knots and Hitches');
    await tabTo(page, walk, /^Save$/, { max: 30 });
    await page.keyboard.press('Enter');
    await page
      .getByRole('heading', { level: 2, name: 'Harbour Rope Knots and Hitches' })
      .waitFor({ timeout: 30_000 });
  }, 90_000);

  it('signs out from the user menu', async () => {
    await tabTo(page, walk, new RegExp(`^${person.name}$`), { back: true, max: 120 });
    await page.keyboard.press('Enter');
    // the menu takes focus; arrows move within it, Enter chooses
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('role')))
      .toBe('menuitem');
    for (let i = 0; i < 6; i++) {
      const name = await page.evaluate(() => document.activeElement?.textContent?.trim());
      if (name === 'Sign Out') break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
  });

  it('showed where focus was at every stop', () => {
    console.log(`keyboard journey: ${walk.stops} Tab stops, ${walk.unseen.length} without visible focus`);
    expect(walk.stops).toBeGreaterThan(10);
    expect(walk.unseen).toEqual([]);
  });

  it('kept every page free of script errors', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});
