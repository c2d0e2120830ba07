// Steps and fixtures for the Processing Hub, Media Hub and Dashboard browser tests: real files made
// offline (a text PDF, a DOCX, a PNG photo, a PNG disguised as a PDF, an .exe), sign-up through the
// API from inside the page, and drag-and-drop of files onto the drop zone.
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import {
  makeDocx,
  makePdf,
} from '../../../services/processing/src/extract/test-fixtures/generate-documents.ts';
import { redBowl } from '../../../services/processing/src/vision/test-fixtures/generate-photos.ts';
import type { Person } from './shell-flows.ts';

export interface FixtureFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export async function processingFixtures(): Promise<{
  pdf: FixtureFile;
  docx: FixtureFile;
  png: FixtureFile;
  fakePdf: FixtureFile;
  exe: FixtureFile;
  text: FixtureFile;
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
        'We find that turbine arrays deliver predictable power with a capacity factor of 41 percent.',
        'Maintenance costs fell by a third after switching to subsea connectors.',
      ],
    ],
  });
  const docx = await makeDocx({
    title: 'Beekeeping Notes',
    creator: 'Jonas Whitfield',
    paragraphs: [
      'Beekeeping Notes for Urban Rooftops',
      'Urban honey bee colonies thrive when forage is diverse and water is close by.',
      'Inspect hives every nine days in spring to prevent swarming; record queen cells and brood patterns.',
    ],
  });
  const photo = await redBowl();
  const png = await sharp(photo.bytes).png().toBuffer();
  // Other bytes than the photo's (else the server would rightly call it a duplicate of it).
  const otherPng = await sharp(photo.bytes).resize(320).png().toBuffer();
  // An MZ header: what a Windows program starts with.
  const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510, 0x90)]);
  return {
    pdf: { name: 'tidal-report.pdf', mimeType: 'application/pdf', buffer: pdf },
    docx: {
      name: 'beekeeping-notes.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: docx,
    },
    png: { name: 'red-bowl.png', mimeType: 'image/png', buffer: png },
    // Passes the browser's checks (a .pdf name and type), but the bytes are a PNG: the server refuses it.
    fakePdf: { name: 'scanned-invoice.pdf', mimeType: 'application/pdf', buffer: otherPng },
    exe: { name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: exe },
    text: {
      name: 'slow-upload.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('A plain text note that will be cancelled while it uploads.\n'),
    },
  };
}

/** Creates an account through the API from inside the page, so the browser holds its cookies. */
export async function registerInBrowser(page: Page, person: Person): Promise<void> {
  const status = await page.evaluate(async (p) => {
    const res = await fetch('/api/auth/register', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify({ email: p.email, password: p.password, name: p.name }),
    });
    return res.status;
  }, person);
  if (status !== 201) throw new Error(`registering ${person.email} answered ${status}`);
}

/** Drops files on an element the way a person dragging them from the desktop does. */
export async function dropFiles(page: Page, selector: string, files: FixtureFile[]): Promise<void> {
  const payload = files.map((f) => ({
    name: f.name,
    mimeType: f.mimeType,
    base64: f.buffer.toString('base64'),
  }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name, { type: f.mimeType }));
    }
    return dt;
  }, payload);
  const target = page.locator(selector);
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** The text of each metric card on the dashboard, by label. */
export async function dashboardMetrics(page: Page): Promise<Record<string, string>> {
  const cards = page.getByTestId('metric');
  const out: Record<string, string> = {};
  for (let i = 0; i < (await cards.count()); i++) {
    const card = cards.nth(i);
    const label = (await card.getAttribute('aria-label')) ?? `metric ${i}`;
    out[label] = ((await card.getByTestId('metric-value').textContent()) ?? '').trim();
  }
  return out;
}
