// Every screen with the first-run sample library (issue 18): a newcomer loads it from the dashboard,
// finds its documents and items marked "Sample" in the vault, search, the graph, the inventory and
// the observatory; every screen, signed in and out, at desktop 1440×900 and phone 390×844, has no
// serious or critical axe-core violation and is kept as a screenshot; one click removes the samples.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { blockingViolations, type BlockingViolation } from './support/accessibility.ts';
import { launchBrowser, type Browser } from './support/browser.ts';
import { missingPrerequisite, startKaboodle, type KaboodleServer } from './support/kaboodle-server.ts';
import { registerInBrowser } from './support/processing-flows.ts';
import {
  keepScreenshot,
  openScreen,
  SIGNED_OUT_SCREENS,
  signedInScreens,
  type Screen,
} from './support/screens.ts';
import { newPerson, signOut } from './support/shell-flows.ts';
import { apiGet } from './support/vault-flows.ts';

const missing = missingPrerequisite();
if (missing) console.warn(`e2e everyday screens suite skipped: ${missing}`);

const SIZES = [
  { tag: '1440', width: 1440, height: 900 },
  { tag: '390', width: 390, height: 844 },
] as const;

interface FileBody {
  status: string;
  sample: boolean;
}

describe.skipIf(missing !== null)('every screen, with the sample library', () => {
  let server: KaboodleServer;
  let browser: Browser;
  let page: Page;
  const ids = { itemId: '', kaboodleId: '' };

  beforeAll(async () => {
    server = await startKaboodle();
    browser = await launchBrowser({ width: 1440, height: 900 });
    page = browser.page;
    await page.goto(`${server.url}/`);
    await registerInBrowser(page, newPerson('samples'));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Every screen at both sizes: axe's blocking violations (all listed), and a screenshot. */
  async function auditScreens(screens: readonly Screen[]): Promise<Record<string, BlockingViolation[]>> {
    const found: Record<string, BlockingViolation[]> = {};
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const screen of screens) {
        await openScreen(page, server.url, screen);
        const violations = await blockingViolations(page);
        if (violations.length) found[`${screen.name}-${size.tag}`] = violations;
        await keepScreenshot(page, `${screen.name}-${size.tag}`);
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    return found;
  }

  it('offers a newcomer the sample library on the dashboard, and loads it in one click', async () => {
    await page.goto(`${server.url}/dashboard`);
    const offer = page.getByTestId('sample-library');
    await offer
      .getByRole('heading', { name: 'Try Kaboodle with a sample library' })
      .waitFor({ timeout: 30_000 });
    await keepScreenshot(page, 'sample-offer-1440');
    await offer.getByRole('button', { name: 'Load the sample library' }).click();
    await offer
      .getByRole('status')
      .getByText(/The sample library is on its way: 12 files/)
      .waitFor();
    await expect
      .poll(
        async () => {
          const { body } = await apiGet<{ files: FileBody[] }>(page, '/process/files?limit=100');
          return body.files.filter((f) => f.sample && f.status === 'completed').length;
        },
        { timeout: 240_000, interval: 1_000 },
      )
      .toBe(12);
    await page.reload();
    await offer.getByText(/12 sample files are in your library/).waitFor({ timeout: 30_000 });
    await offer.getByRole('button', { name: 'Remove the sample library' }).waitFor();
  }, 300_000);

  it('marks the samples "Sample" in the vault, the Media Hub and the inventory', async () => {
    await page.goto(`${server.url}/documents`);
    await page.getByRole('radio', { name: 'Table' }).click();
    await page.getByTestId('document-row').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('document-row').count()).toBe(6);
    expect(await page.getByTestId('document-row').getByTestId('sample-badge').count()).toBe(6);
    await page.goto(`${server.url}/inventory`);
    await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor({ timeout: 30_000 });
    const items = await apiGet<{ id: string; sample: boolean; name: string }[]>(
      page,
      '/api/inventory?limit=100',
    );
    expect(items.body).toHaveLength(6);
    expect(items.body.every((i) => i.sample)).toBe(true);
    ids.itemId = items.body[0]!.id;
    await page.goto(`${server.url}/media-hub`);
    await page.getByTestId('media-item').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('media-item').getByTestId('sample-badge').count()).toBe(12);
  });

  it('lets the samples be tried: search finds one, the graph links them, the observatory counts them', async () => {
    await page.goto(`${server.url}/search`);
    await page.getByRole('searchbox').first().fill('stoneware glaze crazing');
    await page
      .locator('.kb-search__result')
      .filter({ hasText: 'Caring for Hand-Thrown Stoneware Bowls' })
      .first()
      .waitFor({ timeout: 30_000 });
    await page.goto(`${server.url}/documents`);
    await page.getByRole('radio', { name: 'Graph' }).click();
    await page.getByTestId('graph-node').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('graph-node').count()).toBe(6);
    // two documents by each author: linked, and said in words as well as drawn
    const graph = await page.getByRole('group', { name: /^Document graph: 6 documents, \d+ links$/ }).count();
    expect(graph).toBe(1);
    await page.goto(`${server.url}/observatory`);
    await page.getByRole('heading', { level: 1, name: 'Data Intelligence & Analysis Platform' }).waitFor();
    const { body } = await apiGet<{ library: { documents: number; inventory_items: number } }>(
      page,
      '/api/insights',
    );
    expect(body.library).toMatchObject({ documents: 6, inventory_items: 6 });
  });

  it('has no serious or critical axe violation on any signed-in screen, at either size', async () => {
    const created = await page.evaluate(async (itemId) => {
      const csrf = /(?:^|;\s*)kaboodle_csrf=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const res = await fetch('/api/kaboodles', {
        method: 'POST',
        credentials: 'include',
        headers: {
          'Content-Type': 'application/json',
          'X-Requested-With': 'XMLHttpRequest',
          'X-CSRF-Token': decodeURIComponent(csrf),
        },
        body: JSON.stringify({
          name: 'Market stall',
          description: 'What goes to Saturday’s market',
          members: [{ type: 'inventory_item', id: itemId }],
        }),
      });
      return { status: res.status, body: (await res.json()) as { id: string } };
    }, ids.itemId);
    expect(created.status).toBe(201);
    ids.kaboodleId = created.body.id;
    expect(await auditScreens(signedInScreens(ids))).toEqual({});
  }, 600_000);

  it('removes the sample library and all it made in one click', async () => {
    await page.goto(`${server.url}/dashboard`);
    const offer = page.getByTestId('sample-library');
    await offer.getByRole('button', { name: 'Remove the sample library' }).click({ timeout: 30_000 });
    await offer
      .getByRole('status')
      .getByText('The sample library was removed (12 files and everything made from them).')
      .waitFor();
    await expect
      .poll(
        async () => {
          const docs = await apiGet<unknown[]>(page, '/api/documents?limit=100');
          const items = await apiGet<unknown[]>(page, '/api/inventory?limit=100');
          return docs.body.length + items.body.length;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(0);
    // an empty library again: the offer is back
    await page.reload();
    await offer.getByRole('button', { name: 'Load the sample library' }).waitFor({ timeout: 30_000 });
  }, 120_000);

  it('has no serious or critical axe violation on any signed-out screen, at either size', async () => {
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 30_000 });
    await signOut(page);
    expect(await auditScreens(SIGNED_OUT_SCREENS)).toEqual({});
  }, 300_000);

  it('kept every page free of script errors', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});
