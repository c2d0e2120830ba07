// Everyday use (issue 18), with a small library: a retry that retries, previews that open (a PDF's
// pages in the reader and the Media Hub, the whole photo, a text's words), a document found in AI
// Search opening its vault page in a new tab, what the vault says when nothing matches, a table that
// fits 1440 px, cards that clamp cleanly, the header naming each page, one footer style everywhere,
// a refused link called a link, a capped Recent Activity with its full list, and a phone layout
// that holds (one-row switchers, a readable graph, whole photos, card descriptions, no "on the left").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from './support/browser.ts';
import { uploadTo } from './support/kaboodle-flows.ts';
import { missingPrerequisite, startKaboodle, type KaboodleServer } from './support/kaboodle-server.ts';
import { processingFixtures, registerInBrowser, type FixtureFile } from './support/processing-flows.ts';
import { newPerson, screenshot } from './support/shell-flows.ts';
import { uploadInBrowser, vaultFixtures, waitForCompleted } from './support/vault-flows.ts';

const missing = missingPrerequisite();
if (missing) console.warn(`e2e everyday library suite skipped: ${missing}`);

const FINISH = 120_000;

/** Dark pixels drawn on a canvas (text on a white page), so "the page is visible" means ink. */
function inkOf(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i]! < 110 && data[i + 3]! > 0) dark++;
      return dark;
    });
}

describe.skipIf(missing !== null)('everyday use: a small library', () => {
  let server: KaboodleServer;
  let browser: Browser;
  let page: Page;
  const ids: Record<string, string> = {};
  let files: Awaited<ReturnType<typeof processingFixtures>>;
  const cspErrors: string[] = [];

  const go = async (path: string, heading: string | RegExp) => {
    await page.goto(`${server.url}${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 30_000 });
  };
  const queueItem = (name: string) => page.locator(`[data-testid="queue-item"][data-name="${name}"]`);
  const setPhone = () => page.setViewportSize({ width: 390, height: 844 });
  const setDesktop = () => page.setViewportSize({ width: 1440, height: 900 });

  beforeAll(async () => {
    server = await startKaboodle();
    browser = await launchBrowser({ width: 1440, height: 900 });
    page = browser.page;
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    await page.goto(`${server.url}/`);
    await registerInBrowser(page, newPerson('library'));
    const v = await vaultFixtures();
    files = await processingFixtures();
    const uploads: [string, FixtureFile, 'document' | 'inventory'][] = [
      ['pdf', v.pdf, 'document'],
      ['bees', v.bees, 'document'],
      ['aqueducts', v.aqueducts, 'document'],
      ['docx', files.docx, 'document'],
      ['photo', files.png, 'inventory'],
    ];
    for (const [key, file, destination] of uploads)
      ids[key] =
        destination === 'document'
          ? await uploadInBrowser(page, file)
          : await uploadTo(page, file, destination);
    for (const id of Object.values(ids)) await waitForCompleted(page, id, FINISH);
  }, FINISH + 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('Retry processes a failed file again: its own reason once, never "already uploaded"', async () => {
    await go('/process', 'Processing Hub');
    await page
      .locator('input[type="file"]')
      .setInputFiles([
        { name: files.fakePdf.name, mimeType: files.fakePdf.mimeType, buffer: files.fakePdf.buffer },
      ]);
    await page.getByRole('button', { name: 'Process 1 file' }).click();
    const failed = queueItem(files.fakePdf.name).locator('[data-status="failed"]');
    await failed.first().waitFor({ timeout: FINISH });
    const reason = (
      (await queueItem(files.fakePdf.name).getByTestId('item-error').textContent()) ?? ''
    ).trim();
    expect(reason).not.toMatch(/already uploaded/i);
    await queueItem(files.fakePdf.name)
      .getByRole('button', { name: `Retry ${files.fakePdf.name}` })
      .click();
    await page.getByRole('button', { name: 'Process 1 file' }).click();
    await page.getByTestId('batch-progress').waitFor({ state: 'detached', timeout: FINISH });
    // processed again: the same real reason, not the duplicate notice, and listed once
    const again = (
      (await queueItem(files.fakePdf.name).getByTestId('item-error').textContent()) ?? ''
    ).trim();
    expect(again).toBe(reason);
    expect(await queueItem(files.fakePdf.name).locator('.kbd-item__note').count()).toBe(0);
    expect(await page.getByTestId('error-list').getByRole('listitem').allTextContents()).toEqual([
      `Failed to process file "${files.fakePdf.name}": ${reason}`,
    ]);
    // and the Media Hub keeps one record of it
    await go('/media-hub', 'Media Hub');
    await page.getByTestId('media-item').first().waitFor();
    expect(await page.locator(`[data-testid="media-item"][data-name="${files.fakePdf.name}"]`).count()).toBe(
      1,
    );
  });

  it("shows a PDF's first page in the vault's reader", async () => {
    await go(`/documents?open=${ids.pdf}`, 'Document Vault');
    const pageCanvas = page.getByRole('img', { name: /^Page 1 of 1 of tidal-report\.pdf$/ });
    await pageCanvas.waitFor({ timeout: 30_000 });
    await page.locator('.kb-pdf__page[data-state="drawn"]').first().waitFor({ timeout: 30_000 });
    expect(await inkOf(page, '[data-testid="pdf-page"]')).toBeGreaterThan(500);
    expect(await page.getByText('This browser cannot show the PDF here.').count()).toBe(0);
    await pageCanvas.scrollIntoViewIfNeeded();
    await screenshot(page, 'everyday-reader-pdf-1440');
    expect(cspErrors).toEqual([]);
  });

  it('previews files in full from the Media Hub: PDF pages, the whole photo, the text', async () => {
    await go('/media-hub', 'Media Hub');
    const preview = async (name: string) => {
      const button = page.getByRole('button', { name: `Preview ${name}` });
      await button.click();
      const dialog = page.getByRole('dialog', { name });
      await dialog.waitFor();
      return { dialog, button };
    };
    // a PDF: its page drawn
    let open = await preview('tidal-report.pdf');
    await open.dialog.locator('.kb-pdf__page[data-state="drawn"]').waitFor({ timeout: 30_000 });
    expect(await inkOf(page, '[role="dialog"] [data-testid="pdf-page"]')).toBeGreaterThan(500);
    await screenshot(page, 'everyday-media-preview-pdf-1440');
    await page.keyboard.press('Escape');
    await open.dialog.waitFor({ state: 'detached' });
    // focus returns to the button that opened it
    expect(await open.button.evaluate((el) => el === document.activeElement)).toBe(true);
    // the photo: all of it, at a useful size (not the 160 px card thumbnail)
    open = await preview(files.png.name);
    const img = open.dialog.getByTestId('image-preview');
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
    const shown = await img.evaluate((el: HTMLImageElement) => ({
      natural: el.naturalWidth,
      width: el.getBoundingClientRect().width,
      fit: getComputedStyle(el).objectFit,
    }));
    expect(shown.width).toBeGreaterThan(300);
    expect(shown.fit).toBe('contain');
    await page.keyboard.press('Escape');
    // a text file: its words
    open = await preview('urban-beekeeping.txt');
    await open.dialog.getByText('Honey bee colonies thrive on city rooftops').waitFor();
    await page.keyboard.press('Escape');
    // a Word file: the text Kaboodle read from it
    open = await preview(files.docx.name);
    await open.dialog.getByText('Urban honey bee colonies thrive').waitFor({ timeout: 20_000 });
    await page.keyboard.press('Escape');
  });

  it('opens a document found in AI Search on its vault page in a new tab, the original one click away', async () => {
    await go('/search', 'AI-Powered Search');
    await page.getByRole('searchbox').first().fill('tidal turbines');
    const result = page.locator('.kb-search__result').filter({ hasText: 'Tidal Energy Field Report' });
    await result.first().waitFor({ timeout: 30_000 });
    const [tab] = await Promise.all([browser.context.waitForEvent('page'), result.first().click()]);
    await tab.waitForLoadState();
    const url = new URL(tab.url());
    expect(url.pathname).toBe('/documents');
    expect(url.searchParams.get('open')).toBe(ids.pdf);
    await tab
      .getByRole('heading', { level: 2, name: 'Tidal Energy Field Report' })
      .waitFor({ timeout: 30_000 });
    await tab.getByRole('link', { name: 'Download original' }).waitFor();
    await tab.close();
  });

  it('says nothing matched a keyword and keeps the library total', async () => {
    await go('/documents', 'Document Vault');
    await page.getByRole('radio', { name: 'Table' }).click();
    await page.getByPlaceholder('Search documents...').fill('zzqqxx');
    await page.getByText('No documents match “zzqqxx”.').waitFor({ timeout: 20_000 });
    await page.getByText('Total Documents: 4').waitFor();
    expect(await page.getByText('No documents available.').count()).toBe(0);
    expect(await page.getByText('Total Documents: 0').count()).toBe(0);
    await page.getByPlaceholder('Search documents...').fill('');
    await page.getByTestId('document-row').first().waitFor();
  });

  it('keeps Title and Actions in view at 1440 px, and the column chooser hides what is not needed', async () => {
    const wrap = page.getByTestId('vault-table');
    const download = page
      .getByTestId('document-row')
      .first()
      .getByRole('button', { name: /^Download/ });
    const inWrap = async (selector: ReturnType<Page['locator']>) => {
      const [a, b] = await Promise.all([wrap.boundingBox(), selector.boundingBox()]);
      return a !== null && b !== null && b.x >= a.x - 1 && b.x + b.width <= a.x + a.width + 1;
    };
    expect(await inWrap(download)).toBe(true);
    const title = page.getByTestId('document-row').first().locator('td').first();
    // scrolled sideways, the row's name and its Download stay put
    await wrap.evaluate((el) => (el.scrollLeft = el.scrollWidth / 2));
    expect(await inWrap(title)).toBe(true);
    expect(await inWrap(download)).toBe(true);
    await screenshot(page, 'everyday-vault-table-scrolled-1440');
    await wrap.evaluate((el) => (el.scrollLeft = 0));
    // the chooser: hide Thesis and Issue; the choice is remembered
    await page.getByText(/^Columns \(12 of 12\)$/).click();
    await page.getByRole('checkbox', { name: 'Thesis' }).uncheck();
    await page.getByRole('checkbox', { name: 'Issue' }).uncheck();
    await page.reload();
    await page.getByTestId('document-row').first().waitFor({ timeout: 30_000 });
    const headers = await page.locator('[data-testid="vault-table"] thead th').allTextContents();
    expect(headers.map((h) => h.replace(/[▲▼]/g, '').trim())).not.toContain('Thesis');
    expect(headers.length).toBe(10);
    await page.getByText(/^Columns \(10 of 12\)$/).click();
    await page.getByRole('checkbox', { name: 'Thesis' }).check();
    await page.getByRole('checkbox', { name: 'Issue' }).check();
  });

  it('clamps grid card summaries cleanly: no text after the ellipsis', async () => {
    await page.getByRole('radio', { name: 'Grid' }).click();
    await page.getByTestId('document-card').first().waitFor();
    const boxes = await page.locator('.kb-card__summary').evaluateAll((els) =>
      els.map((el) => {
        const lh = parseFloat(getComputedStyle(el).lineHeight);
        return { height: el.getBoundingClientRect().height, lines: el.getBoundingClientRect().height / lh };
      }),
    );
    for (const b of boxes) expect(b.lines).toBeLessThanOrEqual(5.05);
    await screenshot(page, 'everyday-vault-grid-1440');
    await page.getByRole('radio', { name: 'Table' }).click();
  });

  it('names the page in the header on every screen', async () => {
    for (const [path, heading, name] of [
      ['/search', 'AI-Powered Search', 'Search'],
      ['/profile', /Profile/, 'Profile'],
      ['/settings', /Settings/, 'Settings'],
      ['/documents', 'Document Vault', 'Documents'],
      ['/activity', 'Activity', 'Activity'],
    ] as const) {
      await go(path, heading);
      expect((await page.getByTestId('page-name').textContent())?.trim()).toBe(name);
    }
  });

  it('draws the footer link the same on every screen', async () => {
    const style = () =>
      page.getByRole('button', { name: 'How to Use Kaboodle', exact: true }).evaluate((el) => {
        const s = getComputedStyle(el);
        return [s.color, s.fontSize, s.fontWeight, s.textDecorationLine, s.fontFamily].join(' | ');
      });
    await go('/profile', /Profile/);
    const shellOnly = await style();
    for (const [label, heading] of [
      ['Documents', 'Document Vault'],
      ['Dashboard', 'Dashboard'],
      ['Observatory', 'Data Intelligence & Analysis Platform'],
    ] as const) {
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: label, exact: true })
        .click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 30_000 });
      expect(await style()).toBe(shellOnly);
    }
  });

  it('says a refused pasted link is a link to a private or local address', async () => {
    await go('/process', 'Processing Hub');
    const refused = 'http://192.168.1.20/notes.pdf';
    await page.getByLabel('Paste a link').fill(refused);
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByRole('button', { name: 'Process 1 file' }).click();
    await page.getByTestId('batch-progress').waitFor({ state: 'detached', timeout: FINISH });
    const reason = 'This link points to a private or local network address, which Kaboodle does not fetch';
    await expect(queueItem(refused).getByTestId('item-error').textContent()).resolves.toBe(reason);
    expect(await page.getByTestId('error-list').getByRole('listitem').allTextContents()).toEqual([
      `Failed to process link "${refused}": ${reason}`,
    ]);
  });

  it('caps Recent Activity on the dashboard and links to the full list', async () => {
    await go('/dashboard', 'Dashboard');
    await page.getByTestId('activity-item').first().waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('activity-item').count()).toBeLessThanOrEqual(6);
    await page.getByRole('link', { name: 'See all activity' }).click();
    await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
    await expect.poll(() => page.getByTestId('activity-item').count()).toBeGreaterThan(6);
    await screenshot(page, 'everyday-activity-1440');
  });

  describe('on a phone (390 × 844)', () => {
    beforeAll(setPhone);
    afterAll(setDesktop);

    const rowsOf = (selector: string) =>
      page
        .locator(selector)
        .evaluateAll((els) => [...new Set(els.map((el) => Math.round(el.getBoundingClientRect().top)))]);
    const inside = (selector: string) =>
      page
        .locator(selector)
        .evaluateAll((els) => els.every((el) => el.getBoundingClientRect().right <= window.innerWidth + 0.5));

    it("keeps the vault's view switcher on one row", async () => {
      await go('/documents', 'Document Vault');
      expect(await rowsOf('.kb-views__option')).toHaveLength(1);
      expect(await inside('.kb-views__option')).toBe(true);
    });

    it('draws the graph big enough to read', async () => {
      await page.getByRole('radio', { name: 'Graph' }).click();
      await page.getByTestId('graph-node').first().waitFor({ timeout: 30_000 });
      const canvas = await page.getByTestId('document-graph').boundingBox();
      expect(canvas!.height).toBeGreaterThan(300);
      const labels = await page
        .locator('.kb-graph__label')
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
      expect(labels.length).toBeGreaterThan(0);
      for (const h of labels) expect(h).toBeGreaterThanOrEqual(10);
      await screenshot(page, 'everyday-vault-graph-390');
      await page.getByRole('radio', { name: 'Table' }).click();
    });

    it("keeps the Processing Hub's destination on one row, and does not point left", async () => {
      await go('/process', 'Processing Hub');
      expect(await rowsOf('.kbd-segmented label')).toHaveLength(1);
      expect(await inside('.kbd-segmented label')).toBe(true);
      const empty = (await page.getByTestId('queue-empty').textContent()) ?? '';
      expect(empty).not.toMatch(/left|right/i);
      await screenshot(page, 'everyday-process-390');
    });

    it('shows whole photos in the Media Hub cards', async () => {
      await go('/media-hub', 'Media Hub');
      const thumb = page
        .locator(`[data-testid="media-item"][data-name="${files.png.name}"] .kbd-media-card__preview`)
        .first();
      await thumb
        .locator('img')
        .evaluate((el: HTMLImageElement) =>
          el.complete ? null : new Promise((r) => el.addEventListener('load', r, { once: true })),
        );
      const fit = await thumb.evaluate((box) => {
        const img = box.querySelector('img')!;
        const a = box.getBoundingClientRect();
        const b = img.getBoundingClientRect();
        return { fit: getComputedStyle(img).objectFit, overflow: b.height - a.height };
      });
      expect(fit.fit).toBe('contain');
      expect(fit.overflow).toBeLessThanOrEqual(1);
      await thumb.scrollIntoViewIfNeeded();
      await screenshot(page, 'everyday-media-hub-390');
    });

    it('keeps the dashboard cards’ descriptions', async () => {
      await go('/dashboard', 'Dashboard');
      const texts = page.locator('.kbd-card__text');
      expect(await texts.count()).toBe(4);
      for (let i = 0; i < 4; i++) expect(await texts.nth(i).isVisible()).toBe(true);
      await screenshot(page, 'everyday-dashboard-390');
    });
  });

  it('kept every page free of script errors', () => {
    expect(browser.pageErrors).toEqual([]);
  });
});
