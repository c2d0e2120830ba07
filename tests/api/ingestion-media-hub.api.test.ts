// The Media Hub routes over real HTTP against `kaboodle --target=all`: list (paged, newest first,
// filtered), the original bytes with safe headers, delete (record and blob gone), reprocess (a new
// attempt, 409 while running), the status body's new fields, and that another user gets 404 from
// every route, exactly as for a file that does not exist.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';
import { ingestionClient, tokenSubject } from '../support/ingestion-client.ts';
import type { FileBody, IngestionClient } from '../support/ingestion-client.ts';

const data = tempDataDir();
let app: KaboodleProcess;
let api: IngestionClient;
let alice: string;
let bob: string;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const text = (label: string) => ({
  bytes: Buffer.from(`${label} ${randomUUID()}\nA short note about glass beads.`),
  name: `${label}.txt`,
  type: 'text/plain',
});
type ListBody = { files: FileBody[]; total: number };

/** Where the local blob store keeps a file's bytes (KABOODLE_DATA_DIR/blobs/<bucket>/objects/…). */
const blobPath = (owner: string, id: string) =>
  path.join(data.dir, 'blobs', 'kaboodle', 'objects', 'files.d', `${owner}.d`, `${id}.blob`);

beforeAll(async () => {
  app = await startKaboodleProcess({
    target: 'all',
    env: { KABOODLE_DATA_DIR: data.dir, DATABASE_URL: '', KAFKA_BROKERS: '', S3_ENDPOINT: '' },
  });
  api = ingestionClient(app.url);
  [alice, bob] = await Promise.all([api.register('alice'), api.register('bob')]);
});
afterAll(async () => {
  await app?.stop();
  data.remove();
});

describe('GET /process/files', () => {
  it('lists only the caller’s files, newest first, with the total, paged and filtered by status', async () => {
    const carol = await api.register('carol');
    const ids: string[] = [];
    for (const label of ['first', 'second', 'third']) {
      const up = await api.upload(carol, text(label));
      expect(up.status).toBe(202);
      ids.push(up.body.id);
    }
    await api.upload(alice, text('not-carols'));
    const page1 = await api.call<ListBody>('GET', '/process/files?limit=2', carol);
    expect(page1.status).toBe(200);
    expect(page1.body.total).toBe(3);
    expect(page1.body.files.map((f) => f.id)).toEqual([ids[2], ids[1]]);
    const page2 = await api.call<ListBody>('GET', '/process/files?limit=2&page=2', carol);
    expect(page2.body.files.map((f) => f.id)).toEqual([ids[0]]);
    expect(page2.body.files[0]).toMatchObject({
      name: 'first.txt',
      content_type: 'text/plain',
      attempt: 1,
      destination: 'auto',
      source_url: null,
    });
    const cancelled = await api.call('POST', `/process/cancel/${ids[1]}`, carol);
    expect(cancelled.body.status).toBe('cancelled');
    const onlyCancelled = await api.call<ListBody>('GET', '/process/files?status=cancelled', carol);
    expect(onlyCancelled.body).toMatchObject({ total: 1, files: [{ id: ids[1] }] });
  });

  it.each([
    ['limit=0', /^limit must be a whole number between 1 and 100$/],
    ['limit=101', /^limit must be a whole number between 1 and 100$/],
    ['page=0', /^page must be a whole number between 1 and/],
    ['page=-1', /^page must be a whole number/],
    ['page=abc', /^page must be a whole number/],
    ['limit=1e3', /^limit must be a whole number/],
    ['status=done', /^status must be one of queued, processing, completed, failed, cancelled$/],
  ])('answers 400 with a clear message for %s', async (query, message) => {
    const res = await api.call('GET', `/process/files?${query}`, alice);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe('GET /process/files/:id/content', () => {
  it('serves a text file inline with nosniff, a sandbox CSP and the exact name', async () => {
    const file = { ...text('notes'), name: 'Заметки léa.txt' };
    const up = await api.upload(alice, file);
    const res = await fetch(new URL(`/process/files/${up.body.id}/content`, app.url), {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(file.bytes)).toBe(true);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    const disposition = res.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^inline; filename="?[\x20-\x7e]+"?; filename\*=UTF-8''/);
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)![1]!)).toBe(file.name);
  });

  it('serves by the type the bytes show: a PNG inline as an image, HTML uploaded as .txt as plain text', async () => {
    const png = await api.upload(alice, { bytes: PNG, name: 'dot.png', type: 'image/png' });
    const res = await fetch(new URL(`/process/files/${png.body.id}/content`, app.url), {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(res.headers.get('content-security-policy')).toBeNull();
    await res.arrayBuffer();

    const html = await api.upload(alice, {
      bytes: Buffer.from(`<!doctype html><script>alert(1)</script>${randomUUID()}`),
      name: 'page.txt',
      type: 'text/plain',
    });
    const served = await fetch(new URL(`/process/files/${html.body.id}/content`, app.url), {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(served.headers.get('content-security-policy')).toBe('sandbox');
    await served.arrayBuffer();
  });

  it('sends an attachment with ?download=1', async () => {
    const up = await api.upload(alice, text('download-me'));
    const res = await fetch(new URL(`/process/files/${up.body.id}/content?download=1`, app.url), {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=download-me\.txt$/);
    await res.arrayBuffer();
  });
});

describe('DELETE /process/files/:id', () => {
  it('removes the record and the stored bytes, even while the file is being processed', async () => {
    const up = await api.upload(alice, text('delete-me'));
    const blob = blobPath(tokenSubject(alice), up.body.id);
    expect(existsSync(blob)).toBe(true);
    const res = await api.call('DELETE', `/process/files/${up.body.id}`, alice);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: up.body.id, deleted: true });
    expect((await api.status(alice, up.body.id)).status).toBe(404);
    expect((await api.call('GET', `/process/files/${up.body.id}/content`, alice)).status).toBe(404);
    expect(existsSync(blob)).toBe(false);
    expect((await api.call('DELETE', `/process/files/${up.body.id}`, alice)).status).toBe(404);
  });
});

describe('DELETE /process/files/:id of a completed file', () => {
  it('also removes the document it became (file.deleted reaches the catalogue)', async () => {
    const up = await api.upload(alice, text('became-a-document'));
    const done = await api.waitFor(alice, up.body.id);
    expect(done).toMatchObject({ status: 'completed', result: { type: 'document', id: up.body.id } });
    const docUrl = new URL(`/api/documents/${up.body.id}`, app.url);
    const auth = { headers: { authorization: `Bearer ${alice}` } };
    expect((await fetch(docUrl, auth)).status).toBe(200);
    expect((await api.call('DELETE', `/process/files/${up.body.id}`, alice)).status).toBe(200);
    await expect.poll(async () => (await fetch(docUrl, auth)).status, { timeout: 30_000 }).toBe(404);
  });
});

describe('POST /process/files/:id/reprocess', () => {
  it('refuses while the file is queued or processing, then queues an ended file as a new attempt', async () => {
    const up = await api.upload(alice, text('again'), { instructions: 'first try' });
    const busy = await api.call('POST', `/process/files/${up.body.id}/reprocess`, alice, {});
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe('File is already being processed');

    await api.call('POST', `/process/cancel/${up.body.id}`, alice);
    const again = await api.call('POST', `/process/files/${up.body.id}/reprocess`, alice, {
      instructions: 'second try',
      destination: 'document',
    });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({
      id: up.body.id,
      status: 'queued',
      progress: 0,
      attempt: 2,
      instructions: 'second try',
      destination: 'document',
      error: null,
    });
    // the new attempt is handed to processing, which picks it up
    const picked = await api.waitFor(alice, up.body.id, (f) => f.status !== 'queued' || f.progress > 0);
    expect(picked.attempt).toBe(2);
    expect(picked.status).not.toBe('failed');
  });

  it('reprocesses a failed file and says clearly what is wrong with bad options', async () => {
    const up = await api.upload(
      alice,
      { bytes: PNG, name: 'scan.pdf', type: 'application/pdf' },
      { force: 'true' },
    );
    expect(up.status).toBe(202);
    const failed = await api.waitFor(alice, up.body.id);
    expect(failed.status, JSON.stringify(failed)).toBe('failed');
    const bad = await api.call('POST', `/process/files/${up.body.id}/reprocess`, alice, {
      destination: 'moon',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Unknown destination "moon"/);
    const long = await api.call('POST', `/process/files/${up.body.id}/reprocess`, alice, {
      instructions: 'x'.repeat(2001),
    });
    expect(long.body.message).toBe('AI instructions are limited to 2000 characters');
    const again = await api.call('POST', `/process/files/${up.body.id}/reprocess`, alice);
    expect(again.status).toBe(202);
    expect(again.body.attempt).toBe(2);
    // the same content fails the same way, for the new attempt
    const refailed = await api.waitFor(alice, up.body.id, (f) => f.status === 'failed');
    expect(refailed).toMatchObject({ attempt: 2, status: 'failed' });
    expect(refailed.error).toMatch(/PNG/);
  });
});

describe('another user’s file answers 404 on every route', () => {
  it('cannot be seen, listed, cancelled, read, downloaded, deleted or reprocessed by someone else', async () => {
    const up = await api.upload(alice, text('private'));
    const id = up.body.id;
    const missing = randomUUID();
    for (const target of [id, missing]) {
      expect((await api.status(bob, target)).status).toBe(404);
      expect((await api.call('POST', `/process/cancel/${target}`, bob)).status).toBe(404);
      expect((await api.call('GET', `/process/files/${target}/content`, bob)).status).toBe(404);
      expect((await api.call('GET', `/process/files/${target}/content?download=1`, bob)).status).toBe(404);
      expect((await api.call('POST', `/process/files/${target}/reprocess`, bob, {})).status).toBe(404);
      expect((await api.call('DELETE', `/process/files/${target}`, bob)).status).toBe(404);
    }
    const bobs = await api.call<ListBody>('GET', '/process/files?limit=100', bob);
    expect(bobs.body.files.map((f) => f.id)).not.toContain(id);
    // and nothing of alice's changed
    const after = await api.status(alice, id);
    expect(after.status).toBe(200);
    expect(after.body.status).not.toBe('cancelled');
    expect(after.body.attempt).toBe(1);
    expect((await api.call('GET', `/process/files/${id}/content`, alice)).status).toBe(200);
    // ids that are not UUIDs are simply not found
    expect((await api.call('GET', '/process/files/..%2F..%2Fetc/content', alice)).status).toBe(404);
  });

  it('requires a signed-in user for the Media Hub routes', async () => {
    expect((await api.call('GET', '/process/files')).status).toBe(401);
    expect((await api.call('DELETE', `/process/files/${randomUUID()}`)).status).toBe(401);
  });
});
