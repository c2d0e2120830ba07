// Every screen of the product, for the screen-by-screen checks of issue 18 (axe, screenshots, the
// speed budget): where it is, what says it is ready, and how to bring it into the state shown.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { REPO_ROOT } from './kaboodle-server.ts';

export interface Screen {
  /** Short file-friendly name: the screenshot's and the figure's. */
  name: string;
  path: string;
  /** The page's h1 once it shows. */
  heading: string | RegExp;
  /** A selector that appears when the screen's own content (not only its frame) is there. */
  content?: string;
  /** What a person does after arriving to see the screen this entry is about (a view, a query). */
  then?: (page: Page) => Promise<void>;
}

export const SIGNED_OUT_SCREENS: readonly Screen[] = [
  { name: 'landing', path: '/', heading: /Kaboodle/ },
  { name: 'about', path: '/about', heading: 'What is Kaboodle?' },
  { name: 'resources', path: '/resources', heading: 'Resources' },
  { name: 'terms', path: '/terms', heading: 'Terms of Service' },
  {
    name: 'verify-email',
    path: '/verify-email?token=not-a-real-token',
    heading: 'Email verification',
    content: '[role="alert"], [role="status"]',
  },
  {
    name: 'reset-password',
    path: '/reset-password?token=not-a-real-token',
    heading: 'Choose a new password',
  },
  { name: 'not-found', path: '/no-such-page', heading: 'Page Not Found' },
];

const view = (name: string, ready: string) => async (page: Page) => {
  await page.getByRole('radio', { name }).click();
  await page.locator(ready).first().waitFor({ timeout: 30_000 });
};

/** The signed-in screens; `itemId` and `kaboodleId` name an inventory item and a kaboodle to open. */
export function signedInScreens(ids: { itemId: string; kaboodleId: string }): Screen[] {
  return [
    { name: 'dashboard', path: '/dashboard', heading: 'Dashboard', content: '[data-testid="activity-item"]' },
    { name: 'process', path: '/process', heading: 'Processing Hub' },
    { name: 'media-hub', path: '/media-hub', heading: 'Media Hub', content: '[data-testid="media-item"]' },
    { name: 'activity', path: '/activity', heading: 'Activity', content: '[data-testid="activity-item"]' },
    {
      name: 'vault-table',
      path: '/documents',
      heading: 'Document Vault',
      then: view('Table', '[data-testid="document-row"]'),
    },
    {
      name: 'vault-grid',
      path: '/documents',
      heading: 'Document Vault',
      then: view('Grid', '[data-testid="document-card"]'),
    },
    {
      name: 'vault-browser',
      path: '/documents',
      heading: 'Document Vault',
      then: view('Browser', '.kb-reader__title'),
    },
    {
      name: 'vault-graph',
      path: '/documents',
      heading: 'Document Vault',
      then: view('Graph', '[data-testid="graph-node"]'),
    },
    {
      name: 'search',
      path: '/search',
      heading: 'AI-Powered Search',
      then: async (page) => {
        await page.getByRole('searchbox').first().fill('stoneware glaze');
        await page.locator('.kb-search__result').first().waitFor({ timeout: 30_000 });
      },
    },
    { name: 'inventory', path: '/inventory', heading: 'Inventory', content: '.kb-inv-name, .kb-inv-card' },
    {
      name: 'inventory-item',
      path: `/inventory/${ids.itemId}`,
      heading: /./,
      content: '#kb-inv-item-heading',
    },
    { name: 'kaboodles', path: '/kaboodles', heading: 'Kaboodles' },
    { name: 'kaboodle', path: `/kaboodles/${ids.kaboodleId}`, heading: /./, content: '#kb-kaboodle-heading' },
    {
      name: 'observatory',
      path: '/observatory',
      heading: 'Data Intelligence & Analysis Platform',
      content: '.kb-obs-view, .kb-obs-welcome',
    },
    { name: 'profile', path: '/profile', heading: 'Profile' },
    { name: 'settings', path: '/settings', heading: 'Settings' },
  ];
}

/** Opens a screen and waits until its content is there (not a loader, not only the frame). */
export async function openScreen(page: Page, base: string, screen: Screen): Promise<void> {
  await page.goto(`${base}${screen.path}`);
  await page.getByRole('heading', { level: 1, name: screen.heading }).first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector('.kb-loading') === null, undefined, {
    timeout: 30_000,
  });
  if (screen.content) await page.locator(screen.content).first().waitFor({ timeout: 30_000 });
  if (screen.then) await screen.then(page);
}

/**
 * Where the screens' screenshots go: test-output/ on every run, and the committed set in
 * docs/screenshots/issue-18/ only when asked (KEEP_SCREENSHOTS=1), so a test run never leaves the
 * working tree changed.
 */
export const ISSUE_SCREENSHOTS = process.env.KEEP_SCREENSHOTS
  ? path.join(REPO_ROOT, 'docs', 'screenshots', 'issue-18')
  : path.join(REPO_ROOT, 'test-output', 'screenshots', 'issue-18');

/** A screenshot of a whole screen (see ISSUE_SCREENSHOTS for where). */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ISSUE_SCREENSHOTS, { recursive: true });
  // the whole page: on a phone what a screen is about is often below the first 844 px
  const shot = await page.screenshot({ animations: 'disabled', fullPage: true });
  const file = path.join(ISSUE_SCREENSHOTS, `${name}.png`);
  // The committed set is a palette PNG: a third of the bytes in the repository, and still sharp
  // enough to look at. Quantising a full page costs 0.2–0.35 s of CPU, on the e2e lane that sets
  // CI's length, so test-output/ keeps Chromium's PNG as it is.
  if (process.env.KEEP_SCREENSHOTS)
    await sharp(shot).png({ palette: true, quality: 90, effort: 8 }).toFile(file);
  else writeFileSync(file, shot);
}
