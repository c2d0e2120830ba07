// Real Chromium (Debian's) driven by playwright-core, in a fresh profile per suite.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM } from './kaboodle-server.ts';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors, to fail on surprises. */
  pageErrors: string[];
  close(): Promise<void>;
}

export async function launchBrowser(viewport = { width: 1366, height: 860 }): Promise<Browser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'kaboodle-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  // Never let a test reach the internet (Google Identity Services included).
  await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.abort());
  return {
    context,
    page,
    pageErrors,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
