// Steps for the kaboodle and observatory browser tests: uploads with a destination (photos become
// inventory items), small real pictures, and reading the carousel's "View: n of m".
import type { Page } from 'playwright-core';
import { solidPng } from '../../api/support/catalogue-client.ts';
import type { FixtureFile } from './processing-flows.ts';

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
