// Steps for the Document Vault and Search browser tests: three real documents (a text PDF and two
// plain-text notes on unrelated subjects), uploaded as the signed-in user from inside the page
// (cookies + CSRF like the web client), then followed until the pipeline has stored them.
import type { Page } from 'playwright-core';
import { makePdf } from '../../../services/processing/src/extract/test-fixtures/generate-documents.ts';
import type { FixtureFile } from './processing-flows.ts';

export async function vaultFixtures(): Promise<{
  pdf: FixtureFile;
  bees: FixtureFile;
  aqueducts: FixtureFile;
}> {
  const pdf = await makePdf({
    title: 'Tidal Energy Field Report',
    author: 'Marguerite Okafor',
    pages: [
      [
        'Tidal Energy Field Report',
        'Marguerite Okafor, Coastal Power Institute, 2024',
        '',
        'This report measures tidal stream turbines installed in the Pentland Firth.',
        'Turbine arrays deliver predictable electricity from ocean tides with a capacity factor of 41 percent.',
        'Maintenance costs fell by a third after switching to subsea connectors.',
      ],
    ],
  });
  const text = (lines: string[]) => Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  return {
    pdf: { name: 'tidal-report.pdf', mimeType: 'application/pdf', buffer: pdf },
    bees: {
      name: 'urban-beekeeping.txt',
      mimeType: 'text/plain',
      buffer: text([
        'Urban Beekeeping on Rooftops',
        'By Jonas Whitfield, 2019',
        '',
        'Honey bee colonies thrive on city rooftops when forage is diverse and water is close by.',
        'Beekeepers inspect the hives every nine days in spring to prevent swarming, and record queen cells.',
        'A strong colony produces twenty kilograms of honey in a good summer; wax and pollen are harvested too.',
        'Pollinators such as bees matter for urban gardens, orchards and allotments.',
      ]),
    },
    aqueducts: {
      name: 'roman-aqueducts.txt',
      mimeType: 'text/plain',
      buffer: text([
        'The Engineering of Roman Aqueducts',
        'By Livia Marcellus, 1987',
        '',
        'Roman engineers carried water to cities over stone arches and underground channels.',
        'The Pont du Gard drops only 25 centimetres over its length, a gradient surveyed with the chorobates.',
        'Lead pipes and settling tanks distributed the water to fountains, baths and private houses.',
      ]),
    },
  };
}

/** POST /process as the page's user; returns the file id. */
export async function uploadInBrowser(page: Page, file: FixtureFile): Promise<string> {
  const answer = await page.evaluate(
    async (f) => {
      const csrf = /(?:^|;\s*)kaboodle_csrf=([^;]+)/.exec(document.cookie)?.[1];
      const form = new FormData();
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      form.append('file', new File([bytes], f.name, { type: f.mimeType }));
      form.append('destination', 'document');
      const res = await fetch('/process', {
        method: 'POST',
        credentials: 'include',
        headers: {
          'X-Requested-With': 'XMLHttpRequest',
          ...(csrf ? { 'X-CSRF-Token': decodeURIComponent(csrf) } : {}),
        },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as { id?: string; file_id?: string } };
    },
    { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString('base64') },
  );
  const id = answer.body.id ?? answer.body.file_id;
  if (answer.status !== 202 || !id) throw new Error(`uploading ${file.name} answered ${answer.status}`);
  return id;
}

/** Polls GET /process/status/:id until the file is completed (throws on failed or timeout). */
export async function waitForCompleted(page: Page, id: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const s = await page.evaluate(async (fileId) => {
      const res = await fetch(`/process/status/${fileId}`, { credentials: 'include' });
      return (await res.json()) as { status: string; error?: string | null; result?: unknown };
    }, id);
    last = JSON.stringify(s);
    if (s.status === 'completed' && s.result) return;
    if (s.status === 'failed' || s.status === 'cancelled') throw new Error(`file ${id} ended ${last}`);
    await page.waitForTimeout(500);
  }
  throw new Error(`file ${id} did not complete within ${timeoutMs} ms: ${last}`);
}

/** GET a JSON API path as the page's user. */
export async function apiGet<T>(
  page: Page,
  path: string,
): Promise<{ status: number; body: T; total: string | null }> {
  return page.evaluate(async (p) => {
    const res = await fetch(p, { credentials: 'include', headers: { Accept: 'application/json' } });
    return { status: res.status, body: (await res.json()) as T, total: res.headers.get('x-total-count') };
  }, path);
}

/** RFC 4180 CSV rows (quoted fields, doubled quotes, newlines inside quotes). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
