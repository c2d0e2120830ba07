// Browser tests of the shell's public and account pages, in real Chromium against the real product
// (`kaboodle --target=all`): landing panels and mascot, about, placeholders, 404, the failed sign-in
// notice, profile (name and password), settings and the admin users list. Screenshots of the main
// pages at desktop and phone widths go to test-output/screenshots/.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMail } from '../../services/auth/src/testing/mail-folder.ts';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from './support/browser.ts';
import { missingPrerequisite, startKaboodle, type KaboodleServer } from './support/kaboodle-server.ts';
import { fillSignIn, newPerson, screenshot, signOut, type Person } from './support/shell-flows.ts';

const prerequisite = missingPrerequisite();
if (prerequisite) console.warn(`pages e2e skipped: ${prerequisite}`);

const FORBIDDEN = 'Access denied. You may not have permission for this action.';
const ADMIN = newPerson('admin');

/** Creates an account through the API from inside the page, so the browser holds its cookies. */
async function registerInBrowser(page: Page, person: Person): Promise<void> {
  const status = await page.evaluate(async (p) => {
    const res = await fetch('/api/auth/register', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify({ email: p.email, password: p.password, name: p.name }),
    });
    return res.status;
  }, person);
  expect(status).toBe(201);
}

/** Opens a protected page once the session check has seen the cookie. */
async function openSignedIn(page: Page, url: string, heading: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 30_000 });
}

async function sparkleCount(page: Page): Promise<number> {
  return page.locator('.kb-sparkle').count();
}

describe.skipIf(prerequisite !== null)('public and account pages in Chromium', () => {
  let server: KaboodleServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startKaboodle({ ADMIN_EMAILS: ADMIN.email });
    browser = await launchBrowser({ width: 1440, height: 900 });
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  describe('signed out', () => {
    it('shows the landing page with a welcome asking to sign in, and only one capability panel open at a time', async () => {
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { level: 1, name: 'Kaboodle' }).waitFor();
      await page.getByText('Please sign in to reach your document workspace.').waitFor();
      for (const name of ['Launch', 'Demo', 'Explore']) {
        await expect(page.getByRole('button', { name, exact: true }).isVisible()).resolves.toBe(true);
      }

      const toggles = page.locator('.kbp-panel-toggle');
      await expect(toggles.count()).resolves.toBe(4);
      const expanded = async () =>
        Promise.all(
          [0, 1, 2, 3].map(async (i) => (await toggles.nth(i).getAttribute('aria-expanded')) === 'true'),
        );
      const titles = await page.locator('.kbp-panel-title').allTextContents();
      expect(titles).toEqual([
        'Document Analysis',
        'Inventory Cataloguing',
        'Vector-Based Search',
        'Combining Insights',
      ]);

      await expect(expanded()).resolves.toEqual([true, false, false, false]);
      await page.getByRole('button', { name: /Inventory Cataloguing/ }).click();
      await expect(expanded()).resolves.toEqual([false, true, false, false]);
      await page.getByText('Barcode lookup').waitFor();
      await expect(page.getByText('Extraction and OCR').count()).resolves.toBe(0);
      await page.getByRole('button', { name: /Vector-Based Search/ }).click();
      await expect(expanded()).resolves.toEqual([false, false, true, false]);
      // clicking the open panel closes it: none open
      await page.getByRole('button', { name: /Vector-Based Search/ }).click();
      await expect(expanded()).resolves.toEqual([false, false, false, false]);
      await page.getByRole('button', { name: /Document Analysis/ }).click();
      await screenshot(page, 'pages-landing-1440');
    });

    it('opens a dialog about Tick and shows 8 sparkles that are gone after about 1 s', async () => {
      await page.goto(`${server.url}/`);
      const mascot = page.getByRole('button', { name: 'Meet Tick, the Kaboodle mascot' });
      await expect(sparkleCount(page)).resolves.toBe(0);
      // time the burst inside the page (a busy test machine delays the round trips, not the page's clock)
      await page.evaluate(() => {
        const w = window as unknown as { sparkleTimes: { clicked?: number; shown?: number; gone?: number } };
        w.sparkleTimes = {};
        document.addEventListener('click', () => (w.sparkleTimes.clicked ??= performance.now()), {
          capture: true,
        });
        const observer = new MutationObserver(() => {
          const n = document.querySelectorAll('.kb-sparkle').length;
          if (n === 8 && w.sparkleTimes.shown === undefined) w.sparkleTimes.shown = performance.now();
          if (n === 0 && w.sparkleTimes.shown !== undefined && w.sparkleTimes.gone === undefined) {
            w.sparkleTimes.gone = performance.now();
            observer.disconnect();
          }
        });
        observer.observe(document.body, { childList: true, subtree: true });
      });
      await mascot.click();
      await page.getByRole('dialog', { name: 'Meet Tick' }).waitFor();
      await page.waitForFunction(
        () => (window as unknown as { sparkleTimes: { gone?: number } }).sparkleTimes.gone !== undefined,
        undefined,
        { timeout: 5000 },
      );
      const times = await page.evaluate(
        () =>
          (window as unknown as { sparkleTimes: { clicked: number; shown: number; gone: number } })
            .sparkleTimes,
      );
      // all 8 were on screen together, and they left about 1 s after the click
      expect(times.shown).toBeGreaterThanOrEqual(times.clicked);
      const shownFor = times.gone - times.clicked;
      expect(shownFor).toBeGreaterThanOrEqual(950);
      expect(shownFor).toBeLessThan(1800);
      await expect(
        page.getByRole('dialog', { name: 'Meet Tick' }).getByText('clockwork archivist').isVisible(),
      ).resolves.toBe(true);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Meet Tick' }).waitFor({ state: 'detached' });
    });

    it('runs the loading screen from Demo, and from the clockwork bench', async () => {
      await page.goto(`${server.url}/`);
      await page.getByRole('button', { name: 'Demo', exact: true }).click();
      await page.getByTestId('loading-screen').waitFor();
      // the demo runs the spec's timed stages: the mascot's reveal at 60 %, 20 ambient particles
      await page
        .getByTestId('loading-message')
        .filter({ hasText: 'Activating neural networks...' })
        .waitFor({ timeout: 15_000 });
      expect(await page.locator('.kb-loading__particle').count()).toBe(20);
      await screenshot(page, 'loading-screen');
      await page.getByTestId('loading-screen').waitFor({ state: 'detached', timeout: 30_000 });
      await page.goto(`${server.url}/test-clockwork`);
      await page.getByRole('button', { name: 'Run the full loading screen' }).click();
      await page.getByTestId('loading-screen').waitFor();
      await page.getByTestId('loading-screen').waitFor({ state: 'detached', timeout: 30_000 });
    });

    it('opens an About dialog from Explore', async () => {
      await page.goto(`${server.url}/`);
      await page.getByRole('button', { name: 'Explore', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'About Kaboodle' });
      await dialog.waitFor();
      await dialog.getByText('rolodex and layout switcher').waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
    });

    it('shows a dismissible notice after a failed sign-in return (/?error=auth_failed)', async () => {
      await page.goto(`${server.url}/?error=auth_failed`);
      const notice = page.getByRole('alert').filter({ hasText: 'Sign-in failed. Please try again.' });
      await notice.waitFor();
      await notice.getByRole('button', { name: 'Dismiss message' }).click();
      await notice.waitFor({ state: 'detached' });
      expect(new URL(page.url()).searchParams.get('error')).toBeNull();
    });

    it('has the about page sections of the spec', async () => {
      await page.goto(`${server.url}/about`);
      for (const name of ['What is Kaboodle?', 'Core Features', 'Three-Partition Workflow']) {
        await page.getByRole('heading', { name, exact: true }).waitFor();
      }
      for (const part of ['Rolodex and layout switcher', 'Processing zone', 'Results table']) {
        await page.getByRole('heading', { level: 3, name: part }).waitFor();
      }
      await screenshot(page, 'pages-about-1440');
    });

    it('shows the placeholder texts of /resources and /terms', async () => {
      await page.goto(`${server.url}/resources`);
      await page.getByText('Resources page coming soon...', { exact: true }).waitFor();
      await page.goto(`${server.url}/terms`);
      await page.getByText('Terms of Service page coming soon...', { exact: true }).waitFor();
    });

    it('answers an unknown path with the 404 page and its two links', async () => {
      await page.goto(`${server.url}/no/such/archive`);
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
      await page.getByText('404', { exact: true }).waitFor();
      await page.getByText('does not exist in Kaboodle’s universe').waitFor();
      const links = page.getByRole('navigation', { name: 'Where to go instead' }).getByRole('link');
      await expect(links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).resolves.toEqual([
        '/',
        '/dashboard',
      ]);
      await screenshot(page, 'pages-404-1440');
      await page.getByRole('link', { name: 'Return Home' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('heading', { level: 1, name: 'Kaboodle' }).waitFor();
    });

    it('lets the clock face on /test-clockwork be driven by hand', async () => {
      await page.goto(`${server.url}/test-clockwork`);
      const clock = page.getByRole('progressbar', { name: 'Loading' });
      await clock.waitFor();
      await page.getByRole('button', { name: '75%', exact: true }).click();
      await expect(clock.getAttribute('aria-valuenow')).resolves.toBe('75');
      const offset = Number(await page.getByTestId('clock-ring').getAttribute('stroke-dashoffset'));
      expect(offset).toBeCloseTo(534.07 * 0.25, 1);
      // the slider is a real range input: keyboard moves it
      const slider = page.getByLabel(/^Progress/);
      await slider.focus();
      await page.keyboard.press('End');
      await expect(clock.getAttribute('aria-valuenow')).resolves.toBe('100');
      await page.keyboard.press('ArrowLeft');
      await expect(clock.getAttribute('aria-valuenow')).resolves.toBe('99');
      await expect(page.getByText('99%', { exact: true }).count()).resolves.toBeGreaterThan(0);

      // the mascot widget opens its door with the desktop greeting, and falls back to an emoji without its
      // picture
      await page.getByText('At your service!', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Break the image' }).click();
      const fallback = page.locator('[data-fallback="emoji"]');
      await fallback.waitFor();
      await expect(fallback.textContent()).resolves.toBe('🕰️');
    });

    it('stops the clockwork animations for people who prefer reduced motion', async () => {
      await page.goto(`${server.url}/test-clockwork`);
      const spinning = page.locator('.kb-art-spin').first();
      await spinning.waitFor({ state: 'attached' });
      await expect(spinning.evaluate((el) => getComputedStyle(el).animationName)).resolves.toBe(
        'kb-art-spin',
      );
      await page.emulateMedia({ reducedMotion: 'reduce' });
      try {
        await expect(spinning.evaluate((el) => getComputedStyle(el).animationName)).resolves.toBe('none');
        const arm = page.locator('.kb-art-pendulum-arm').first();
        await expect(arm.evaluate((el) => getComputedStyle(el).animationName)).resolves.toBe('none');
      } finally {
        await page.emulateMedia({ reducedMotion: 'no-preference' });
      }
    });

    it('collapses the landing grid on a phone and keeps everything inside the screen', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        await page.goto(`${server.url}/`);
        await page.getByRole('heading', { level: 1, name: 'Kaboodle' }).waitFor();
        const hero = await page.locator('.kbp-hero').boundingBox();
        const panels = await page.locator('.kbp-capabilities').boundingBox();
        expect(panels!.y).toBeGreaterThan(hero!.y + hero!.height - 1);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await screenshot(page, 'pages-landing-390');
        await page.goto(`${server.url}/no-such-page`);
        await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
        await screenshot(page, 'pages-404-390');
      } finally {
        await page.setViewportSize({ width: 1440, height: 900 });
      }
    });
  });

  describe('signed in', () => {
    const person = newPerson('pages');
    const newPassword = `${person.password}-renewed`;

    beforeAll(async () => {
      await page.goto(`${server.url}/about`);
      await registerInBrowser(page, person);
    });

    it('renames the user on /profile and keeps the new name after a reload', async () => {
      await openSignedIn(page, `${server.url}/profile`, 'Profile');
      const name = page.getByLabel('Name', { exact: true });
      await expect(name.inputValue()).resolves.toBe(person.name);
      const email = page.getByLabel('Email', { exact: true });
      await expect(email.inputValue()).resolves.toBe(person.email);
      await expect(email.getAttribute('readonly')).resolves.not.toBeNull();

      await name.fill('Ada Renamed');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByText('Profile saved.').waitFor();
      await screenshot(page, 'pages-profile-1440');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'pages-profile-390');
      await page.setViewportSize({ width: 1440, height: 900 });

      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor({ timeout: 30_000 });
      await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Ada Renamed');
    });

    it('changes the password (refusing a mismatch and a wrong current one), then signs in with the new one', async () => {
      await openSignedIn(page, `${server.url}/profile`, 'Profile');
      // the password card (the email card asks for the current password too)
      const card = page.getByRole('region', { name: 'Change password' });
      const current = card.getByLabel('Current password');
      const fresh = card.getByLabel('New password', { exact: true });
      const confirm = card.getByLabel('Confirm new password');
      const submit = card.getByRole('button', { name: 'Change password' });

      await current.fill(person.password);
      await fresh.fill(newPassword);
      await confirm.fill(`${newPassword}x`);
      await submit.click();
      await page.getByText('Passwords do not match', { exact: true }).waitFor();

      await current.fill('not-my-password');
      await confirm.fill(newPassword);
      await submit.click();
      await page
        .getByRole('alert')
        .filter({ hasText: /incorrect/i })
        .waitFor();

      await current.fill(person.password);
      await submit.click();
      await page.getByText('Password changed').waitFor();
      await expect(current.inputValue()).resolves.toBe('');

      await signOut(page);
      await page.getByRole('button', { name: 'Launch', exact: true }).click();
      await fillSignIn(page, person.email, newPassword);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 30_000 });

      // the old password no longer opens the account
      const oldStatus = await page.evaluate(async (p) => {
        const res = await fetch('/api/auth/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
          body: JSON.stringify({ email: p.email, password: p.password }),
        });
        return res.status;
      }, person);
      expect(oldStatus).toBe(401);
    });

    it('saves the default AI instructions and destination on /settings', async () => {
      await openSignedIn(page, `${server.url}/settings`, 'Settings');
      const instructions = page.getByLabel('Default AI instructions');
      await instructions.waitFor();
      const text = 'List every party, deadline and penalty clause.';
      await instructions.fill(text);
      await page.getByText(`${text.length} / 2000 characters`).waitFor();
      await page.getByLabel(/Inventory item/).check();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved.').waitFor();

      await page.reload();
      await page.getByLabel('Default AI instructions').waitFor({ timeout: 30_000 });
      await expect(page.getByLabel('Default AI instructions').inputValue()).resolves.toBe(text);
      await expect(page.getByLabel(/Inventory item/).isChecked()).resolves.toBe(true);

      // more than 2000 characters cannot be saved
      await page.getByLabel('Default AI instructions').fill('x'.repeat(2001));
      await page.getByText('2001 / 2000 characters').waitFor();
      await expect(page.getByRole('button', { name: 'Save settings' }).isDisabled()).resolves.toBe(true);
    });

    it('tells a normal user that the admin users list is not for them', async () => {
      await openSignedIn(page, `${server.url}/admin/users`, 'Users');
      await page.getByText(FORBIDDEN, { exact: true }).waitFor();
      await expect(page.getByRole('table').count()).resolves.toBe(0);
    });

    it('lists the users for an admin (ADMIN_EMAILS, once the address is verified)', async () => {
      await signOut(page);
      await registerInBrowser(page, ADMIN);
      const mail = await waitForMail(path.join(server.dataDir!, 'mail'), ADMIN.email, /Verify your Kaboodle/);
      await page.goto(mail.link!);
      await page.getByRole('status').filter({ hasText: 'Your email address is verified.' }).waitFor();
      await openSignedIn(page, `${server.url}/admin/users`, 'Users');
      const table = page.getByRole('table');
      await table.waitFor();
      await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual([
        'Email',
        'Name',
        'Role',
        'Created',
        'Last sign-in',
      ]);
      await table.getByRole('cell', { name: person.email, exact: true }).waitFor();
      await table.getByRole('cell', { name: ADMIN.email, exact: true }).waitFor();
      expect(browser.pageErrors).toEqual([]);
    });
  });
});
