// Steps for the kaboodle and observatory browser tests: uploads with a destination (photos become
// inventory items), small real pictures, reading the carousel's "View: n of m", and axe-core audits.
import { createRequire } from 'node:module';
import { chromium, type Page } from 'playwright-core';
import { solidPng } from '../../api/support/catalogue-client.ts';
import { CHROMIUM_ARGS } from './browser.ts';
import { CHROMIUM } from './kaboodle-server.ts';
import type { FixtureFile } from './processing-flows.ts';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export const picture = (name: string, rgb: [number, number, number]): FixtureFile => ({
  name,
  mimeType: 'image/png',
  buffer: solidPng(160, 120, rgb),
});

/** POST /process as the page's user with a destination; returns the file id. */
export async function uploadTo(
  page: Page,
  file: FixtureFile,
  destination: 'document' | 'inventory',
): Promise<string> {
  const answer = await page.evaluate(
    async (f) => {
      const csrf = /(?:^|;\s*)kaboodle_csrf=([^;]+)/.exec(document.cookie)?.[1];
      const form = new FormData();
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      form.append('file', new File([bytes], f.name, { type: f.mimeType }));
      form.append('destination', f.destination);
      const res = await fetch('/process', {
        method: 'POST',
        credentials: 'include',
        headers: {
          'X-Requested-With': 'XMLHttpRequest',
          ...(csrf ? { 'X-CSRF-Token': decodeURIComponent(csrf) } : {}),
        },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as { id?: string } };
    },
    { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString('base64'), destination },
  );
  if (answer.status !== 202 || !answer.body.id)
    throw new Error(`uploading ${file.name} answered ${answer.status}`);
  return answer.body.id;
}

/** The carousel's position, from its "View: n of m" footer. */
export async function viewPosition(page: Page): Promise<{ n: number; m: number }> {
  const text = (await page.locator('.kb-carousel__count').textContent()) ?? '';
  const match = /View: (\d+) of (\d+)/.exec(text);
  if (!match) throw new Error(`no "View: n of m" in "${text}"`);
  return { n: Number(match[1]), m: Number(match[2]) };
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core on a page as the same signed-in person sees it. The product's CSP (rightly) refuses
 * injected scripts, so the audit runs in its own context with bypassCSP and the page's cookies,
 * never by loosening the CSP. Returns the serious and critical violations, readable.
 */
export async function accessibilityProblems(
  page: Page,
  path: string,
  ready: string,
  viewport = { width: 1440, height: 900 },
): Promise<string[]> {
  const storageState = await page.context().storageState();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ storageState, bypassCSP: true, viewport });
    const audit = await context.newPage();
    await audit.goto(new URL(path, page.url()).toString());
    await audit.locator(ready).first().waitFor({ timeout: 30_000 });
    await audit.addScriptTag({ path: AXE });
    const violations = await audit.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: unknown[] }> } })
        .axe;
      return (await axe.run({ resultTypes: ['violations'] })).violations;
    });
    return (violations as AxeViolation[])
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  } finally {
    await browser.close();
  }
}
