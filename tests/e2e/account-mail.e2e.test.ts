// Address verification and password reset in real Chromium against the real product, following the
// messages the local mail adapter wrote to the server's data folder: register → the mail → its link
// → verified; "Forgot password?" → the mail → a new password → signed in, while an older session on
// a phone is signed out. Desktop 1440×900 and phone 390×844, axe-core on the new screens, and
// screenshots in test-output/screenshots/.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { waitForMail } from '../../services/auth/src/testing/mail-folder.ts';
import { blockingViolations } from './support/accessibility.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { missingPrerequisite, startKaboodle, type KaboodleServer } from './support/kaboodle-server.ts';
import {
  fillRegistration,
  fillSignIn,
  newPerson,
  openAuthDialog,
  screenshot,
  signOut,
  waitForLoadingScreenToFinish,
} from './support/shell-flows.ts';

const prerequisite =
  missingPrerequisite() ?? (process.env.KABOODLE_E2E_URL ? 'needs the local mail folder' : null);
if (prerequisite) console.warn(`account mail e2e skipped: ${prerequisite}`);

describe.skipIf(prerequisite !== null)('verification and password reset by e-mail in Chromium', () => {
  let server: KaboodleServer;
  let desktop: Browser;
  let phone: Browser;
  let page: Page;
  const person = newPerson('mail');
  const newPassword = `${person.password}-after-reset`;
  const mailDir = () => path.join(server.dataDir!, 'mail');

  beforeAll(async () => {
    server = await startKaboodle();
    desktop = await launchBrowser({ width: 1440, height: 900 });
    phone = await launchBrowser({ width: 390, height: 844 });
    page = desktop.page;
  });
  afterAll(async () => {
    await desktop?.close();
    await phone?.close();
    await server?.stop();
  });

  const noBlockingViolations = async (p: Page, what: string, include?: string) =>
    expect({ what, violations: await blockingViolations(p, include) }).toEqual({ what, violations: [] });

  it('refuses a password under the rule at registration, with its message', async () => {
    await page.goto(`${server.url}/`);
    await openAuthDialog(page);
    await fillRegistration(page, { ...person, password: 'short' });
    await page.getByText('At least 8 characters, and not one of the most common passwords.').waitFor();
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Password must be at least 8 characters' })
      .waitFor({ timeout: 20_000 });
    await page.keyboard.press('Escape');
  });

  it('registers, shows the "verify your email" notice, and the mailed link verifies the address', async () => {
    await page.goto(`${server.url}/`);
    await openAuthDialog(page);
    await fillRegistration(page, person);
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await waitForLoadingScreenToFinish(page);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    const notice = page.getByTestId('verify-email-notice');
    await notice.getByText(`Please verify your email address: we sent a link to ${person.email}.`).waitFor();
    await screenshot(page, 'verify-notice-1440');
    await noBlockingViolations(page, 'the notice', '[data-testid="verify-email-notice"]');

    // "Resend" mails a new link; the older one stops working
    const first = await waitForMail(mailDir(), person.email, /Verify your Kaboodle email address/);
    await notice.getByRole('button', { name: 'Resend link' }).click();
    await notice.getByText(`We sent a new verification link to ${person.email}.`).waitFor();
    const second = await waitForMail(mailDir(), person.email, /Verify your Kaboodle email address/, {
      timeoutMs: 10_000,
    }).then(async (m) => {
      if (m.link !== first.link) return m;
      await expect
        .poll(async () => (await waitForMail(mailDir(), person.email, /Verify/)).link)
        .not.toBe(first.link);
      return waitForMail(mailDir(), person.email, /Verify/);
    });
    expect(second.link).not.toBe(first.link);
    expect(second.link!.startsWith(`${server.url}/verify-email?token=`)).toBe(true);

    await page.goto(first.link!);
    await page.getByRole('heading', { level: 1, name: 'Email verification' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'This verification link is not valid' }).waitFor();

    await page.goto(second.link!);
    await page.getByRole('status').filter({ hasText: 'Your email address is verified.' }).waitFor();
    await screenshot(page, 'verify-email-1440');
    await noBlockingViolations(page, 'verify-email page');
    // signed in: the notice is gone once the session was read again
    await expect.poll(() => page.getByTestId('verify-email-notice').count()).toBe(0);
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(await page.getByTestId('verify-email-notice').count()).toBe(0);
  });

  it('changes the email on the profile page through a link mailed to the new address', async () => {
    const moved = person.email.replace('@', '+moved@');
    await page.goto(`${server.url}/profile`);
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('New email address').fill(moved);
    await page.getByLabel('Current password', { exact: true }).first().fill(person.password);
    await page.getByRole('button', { name: 'Change email' }).click();
    await page
      .getByText(`We sent a confirmation link to ${moved}. Your sign-in address changes when you open it.`)
      .waitFor();
    await page
      .getByTestId('verify-email-notice')
      .getByText(`Confirm your new email address: we sent a link to ${moved}.`)
      .waitFor();
    await screenshot(page, 'profile-email-change-1440');
    const mail = await waitForMail(mailDir(), moved, /Confirm your new Kaboodle email address/);
    await page.goto(mail.link!);
    await page
      .getByRole('status')
      .filter({ hasText: `Your email address is now ${moved}.` })
      .waitFor();
    await page.goto(`${server.url}/profile`);
    await expect.poll(() => page.getByLabel('Email', { exact: true }).inputValue()).toBe(moved);
    person.email = moved;
  });

  it('"Forgot password?" mails a link; the new password signs in here and signs the phone out', async () => {
    // An older session, on a phone
    await phone.page.goto(`${server.url}/`);
    await openAuthDialog(phone.page);
    await fillSignIn(phone.page, person.email, person.password);
    await phone.page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await phone.page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 30_000 });

    await signOut(page);
    await openAuthDialog(page);
    await page.getByRole('button', { name: 'Continue with Email' }).click();
    await page.getByRole('dialog', { name: 'Sign In' }).waitFor();
    await page.getByLabel('Email').fill(person.email);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await dialog.waitFor();
    await expect(dialog.getByLabel('Email').inputValue()).resolves.toBe(person.email);
    await dialog.getByRole('button', { name: 'Send reset link' }).click();
    await dialog
      .getByText('If an account uses that address, we have emailed it a link to reset the password.')
      .waitFor();
    await screenshot(page, 'forgot-password-1440');
    await noBlockingViolations(page, 'the reset step of the dialog', '[role="dialog"]');
    await page.keyboard.press('Escape');

    const mail = await waitForMail(mailDir(), person.email, /Reset your Kaboodle password/);
    await page.goto(mail.link!);
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    await page.getByText('At least 8 characters, and not one of the most common passwords.').waitFor();
    await noBlockingViolations(page, 'reset-password page');
    // the rule, in the server's words; and a mismatch caught before any call
    await page.getByLabel('New password', { exact: true }).fill('password1');
    await page.getByLabel('Confirm new password').fill('password1');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page
      .getByRole('alert')
      .filter({
        hasText: 'New password is one of the most common passwords: choose one that is harder to guess',
      })
      .waitFor();
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(`${newPassword}x`);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'Passwords do not match' }).waitFor();
    await page.getByLabel('Confirm new password').fill(newPassword);
    await screenshot(page, 'reset-password-1440');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor({ timeout: 30_000 });

    // the phone's session is over: its next call finds the session gone and it lands signed out
    await phone.page.reload();
    await phone.page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
    await phone.page.getByRole('heading', { level: 1, name: 'Kaboodle' }).waitFor();
    const status = await phone.page.evaluate(async () => (await fetch('/api/auth/session')).status);
    expect(status).toBe(401);

    // the new password works; the link does not work twice
    await signOut(page);
    await openAuthDialog(page);
    await fillSignIn(page, person.email, newPassword);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 30_000 });
    await page.goto(mail.link!);
    await page.getByLabel('New password', { exact: true }).fill('yet another passphrase');
    await page.getByLabel('Confirm new password').fill('yet another passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'This password reset link is not valid' }).waitFor();
    expect(desktop.pageErrors).toEqual([]);
  });

  it('shows the link pages on a phone without overflow or blocking accessibility problems', async () => {
    const p = phone.page;
    for (const [url, heading, name] of [
      [`${server.url}/verify-email?token=${'A'.repeat(43)}`, 'Email verification', 'verify-email-390'],
      [`${server.url}/reset-password?token=${'A'.repeat(43)}`, 'Choose a new password', 'reset-password-390'],
    ] as const) {
      await p.goto(url);
      await p.getByRole('heading', { level: 1, name: heading }).waitFor();
      if (name.startsWith('verify')) await p.getByRole('alert').waitFor();
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(p, name);
      await noBlockingViolations(p, name);
    }
    await p.goto(`${server.url}/`);
    await openAuthDialog(p);
    await p.getByRole('button', { name: 'Continue with Email' }).click();
    await p.getByRole('button', { name: 'Forgot password?' }).click();
    await p.getByRole('dialog', { name: 'Reset Password' }).waitFor();
    await screenshot(p, 'forgot-password-390');
    await noBlockingViolations(p, 'reset step on a phone', '[role="dialog"]');

    // a newcomer's notice on a phone: a long address stays inside it
    const newcomer = newPerson('phone-with-a-rather-long-address');
    await p.keyboard.press('Escape');
    await openAuthDialog(p);
    await fillRegistration(p, newcomer);
    await p.getByRole('button', { name: 'Create Account', exact: true }).click();
    await waitForLoadingScreenToFinish(p);
    const notice = p.getByTestId('verify-email-notice');
    await notice.getByText(`we sent a link to ${newcomer.email}`).waitFor();
    const spill = await notice.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const text = el.querySelector('p')!.getBoundingClientRect();
      return {
        right: text.right - box.right,
        page: document.documentElement.scrollWidth - window.innerWidth,
      };
    });
    expect(spill.right).toBeLessThanOrEqual(0);
    expect(spill.page).toBeLessThanOrEqual(0);
    await screenshot(p, 'verify-notice-390');
    await noBlockingViolations(p, 'the notice on a phone', '[data-testid="verify-email-notice"]');
    expect(phone.pageErrors).toEqual([]);
  });
});
