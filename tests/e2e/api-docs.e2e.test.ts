// The API reference in real Chromium against `kaboodle --target=all`: /api/docs renders the served
// OpenAPI document with Swagger UI (its own scripts only, under the page's CSP), lists every service's
// operations, and opens one to show its parameters. Screenshots at desktop and phone widths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleMessage, Page } from 'playwright-core';
import { launchBrowser, type Browser } from './support/browser.ts';
import { missingPrerequisite, startKaboodle, type KaboodleServer } from './support/kaboodle-server.ts';
import { screenshot } from './support/shell-flows.ts';

const missing = missingPrerequisite();
if (missing) console.warn(`api docs e2e skipped: ${missing}`);

describe.skipIf(missing !== null)('the API reference at /api/docs', () => {
  let server: KaboodleServer;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    server = await startKaboodle();
    browser = await launchBrowser({ width: 1440, height: 900 });
    page = browser.page;
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The operation blocks Swagger UI draws, as "METHOD path". */
  const operations = async () =>
    (
      await page
        .locator('.opblock-summary')
        .evaluateAll((blocks) =>
          blocks.map(
            (b) =>
              `${b.querySelector('.opblock-summary-method')?.textContent ?? ''} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`,
          ),
        )
    ).sort();

  it("shows every service's operations, grouped by service", async () => {
    await page.goto(`${server.url}/api/docs`);
    await expect(page.title()).resolves.toBe('Kaboodle API');
    await page.getByRole('heading', { name: /Kaboodle API/ }).waitFor({ timeout: 30_000 });
    await page.locator('.opblock-summary').first().waitFor();
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const declared = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(await operations()).toEqual(declared);
    for (const tag of ['catalogue', 'ingestion', 'search', 'platform']) {
      await expect(page.locator(`.opblock-tag[data-tag="${tag}"]`).isVisible()).resolves.toBe(true);
    }
    await screenshot(page, 'api-docs-desktop');
  });

  it('opens an operation to show its parameters and its answers', async () => {
    const block = page.locator('#operations-catalogue-listDocuments');
    await block.locator('.opblock-summary').click();
    await block.locator('.parameters').waitFor();
    for (const name of ['page', 'limit', 'sort', 'order', 'category']) {
      await expect(block.locator(`tr[data-param-name="${name}"]`).count(), `parameter ${name}`).resolves.toBe(
        1,
      );
    }
    await block.locator('.responses-table').getByText('One page of documents.').waitFor();
    await screenshot(page, 'api-docs-operation');
  });

  it('fits a phone and loads without script or CSP errors', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.locator('.opblock-summary').first().waitFor({ timeout: 30_000 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await screenshot(page, 'api-docs-phone');
    expect(browser.pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
