// The ingestion routes over real HTTP against `kaboodle --target=all`: upload → file.uploaded →
// processing → file.status → GET /process/status, the spec's file rules and their texts, duplicates,
// and that one user can never see or cancel another user's file.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';

const data = tempDataDir();
let app: KaboodleProcess;
let alice: string;
let bob: string;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function register(name: string): Promise<string> {
  const res = await fetch(new URL('/api/auth/register', app.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({
      email: `${name}-${randomUUID()}@example.com`,
      password: 'a long enough passphrase',
      name,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

interface StatusBody {
  id: string;
  attempt?: number;
  result?: { type: string; id: string; url: string } | null;
  status: string;
  progress: number;
  stage: string | null;
  error: string | null;
  duplicate?: boolean;
  message?: string;
}

async function upload(
  token: string | undefined,
  file: { bytes: Buffer; name: string; type: string } | null,
  fields: Record<string, string> = {},
  path = '/process',
): Promise<{ status: number; body: StatusBody }> {
  const form = new FormData();
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(new URL(path, app.url), {
    method: 'POST',
    headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as StatusBody };
}

const status = async (token: string, id: string) => {
  const res = await fetch(new URL(`/process/status/${id}`, app.url), {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: (await res.json()) as StatusBody };
};
const finalStatus = async (token: string, id: string) => {
  await expect
    .poll(async () => (await status(token, id)).body.status, { timeout: 90_000, interval: 300 })
    .toMatch(/^(completed|failed)$/);
  return (await status(token, id)).body;
};

beforeAll(async () => {
  app = await startKaboodleProcess({
    target: 'all',
    env: { KABOODLE_DATA_DIR: data.dir, DATABASE_URL: '', KAFKA_BROKERS: '', S3_ENDPOINT: '' },
  });
  [alice, bob] = await Promise.all([register('alice'), register('bob')]);
});
afterAll(async () => {
  await app?.stop();
  data.remove();
});

describe('POST /process and /upload', () => {
  it('stores a text file, queues it, and its status reaches completed at 100%', async () => {
    const note = `Ledger of the Bead Cooperative\nby Ines Duarte\n\nA record of ${randomUUID()} glass beads traded in 2024.`;
    const up = await upload(
      alice,
      { bytes: Buffer.from(note), name: 'ledger.txt', type: 'text/plain' },
      { instructions: 'tags: beads' },
    );
    expect(up.status).toBe(202);
    expect(up.body).toMatchObject({ status: 'queued', progress: 0, duplicate: false });
    const done = await finalStatus(alice, up.body.id);
    expect(done).toMatchObject({
      status: 'completed',
      progress: 100,
      error: null,
      attempt: 1,
      instructions: 'tags: beads',
      result: { type: 'document', id: up.body.id, url: `/documents?open=${up.body.id}` },
    });
    // "completed" means the document is there (the catalogue reports it after storing)
    const doc = await fetch(new URL(`/api/documents/${up.body.id}`, app.url), {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(doc.status).toBe(200);
  });

  it('fails a PNG named .pdf with a reason the user can read', async () => {
    const up = await upload(alice, { bytes: PNG, name: 'report.pdf', type: 'application/pdf' });
    expect(up.status).toBe(202);
    const done = await finalStatus(alice, up.body.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/PNG.*\.pdf/);
  });

  it('recognises a duplicate upload and does not process it again, unless asked', async () => {
    const bytes = Buffer.from(`duplicate ${randomUUID()}`);
    const first = await upload(alice, { bytes, name: 'a.txt', type: 'text/plain' }, {}, '/upload');
    expect(first.status).toBe(202);
    const again = await upload(alice, { bytes, name: 'b.txt', type: 'text/plain' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, id: first.body.id });
    expect(again.body.message).toContain('already uploaded as "a.txt"');
    const forced = await upload(alice, { bytes, name: 'b.txt', type: 'text/plain' }, { force: 'true' });
    expect(forced.status).toBe(202);
    expect(forced.body.id).not.toBe(first.body.id);
    // another user's identical content is not a duplicate of theirs
    expect((await upload(bob, { bytes, name: 'a.txt', type: 'text/plain' })).status).toBe(202);
  });

  it('takes a new upload of a failed file as a retry: processed again, the failed copy replaced', async () => {
    // the PNG named .pdf fails; the same bytes sent again are processed again, not "already uploaded"
    const bytes = Buffer.concat([PNG, Buffer.from(randomUUID())]);
    const first = await upload(bob, { bytes, name: 'scan.pdf', type: 'application/pdf' });
    expect(first.status).toBe(202);
    expect((await finalStatus(bob, first.body.id)).status).toBe('failed');
    const again = await upload(bob, { bytes, name: 'scan.pdf', type: 'application/pdf' });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ duplicate: false, message: 'File queued for processing' });
    expect(again.body.id).not.toBe(first.body.id);
    expect((await finalStatus(bob, again.body.id)).status).toBe('failed');
    // one entry in the Media Hub, not a trail of copies
    expect((await status(bob, first.body.id)).status).toBe(404);
    const list = await fetch(new URL('/process/files?limit=100', app.url), {
      headers: { authorization: `Bearer ${bob}` },
    });
    const ids = ((await list.json()) as { files: { id: string }[] }).files.map((f) => f.id);
    expect(ids).toContain(again.body.id);
    expect(ids).not.toContain(first.body.id);
  });

  it('refuses a file over 20 MB with the spec text, storing nothing', async () => {
    const big = Buffer.alloc(21 * 1024 * 1024, 0x61);
    const up = await upload(alice, { bytes: big, name: 'big.txt', type: 'text/plain' });
    expect(up.status).toBe(413);
    expect(up.body.message).toBe('File size exceeds 20MB limit (21.00MB)');
  });

  it('refuses unsupported types and nameless files with the spec texts', async () => {
    const zip = await upload(alice, { bytes: Buffer.from('PK'), name: 'a.zip', type: 'application/zip' });
    expect(zip.status).toBe(400);
    expect(zip.body.message).toBe('Unsupported file type: application/zip');
    const exe = await upload(alice, {
      bytes: Buffer.from('MZ'),
      name: 'a.exe',
      type: 'application/octet-stream',
    });
    expect(exe.body.message).toBe('Unsupported file type: exe');
    const nameless = await upload(alice, { bytes: Buffer.from('x'), name: '', type: 'text/plain' });
    expect(nameless.status).toBe(400);
    expect(nameless.body.message).toBe('File name is required');
  });

  it('says clearly what is wrong with a request that carries no file or bad fields', async () => {
    expect((await upload(alice, null, { instructions: 'x' })).body.message).toMatch(/No file was uploaded/);
    const bad = await upload(
      alice,
      { bytes: Buffer.from('x'), name: 'x.txt', type: 'text/plain' },
      { destination: 'moon' },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Unknown destination "moon"/);
    const json = await fetch(new URL('/process', app.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
        authorization: `Bearer ${alice}`,
      },
      body: '{}',
    });
    expect(json.status).toBe(400);
  });

  it('keeps control characters out of AI instructions (a NUL used to end in a 500)', async () => {
    // Found by `make fuzz`: Postgres text cannot hold NUL, so the insert failed.
    const up = await upload(
      alice,
      { bytes: Buffer.from(`control characters ${randomUUID()}`), name: 'ctl.txt', type: 'text/plain' },
      { instructions: 'tidy\u0000 up\u0007 the\ttitle' },
    );
    expect(up.status).toBe(202);
    expect((up.body as StatusBody & { instructions: string }).instructions).toBe('tidy up the\ttitle');
  });

  it('requires a signed-in user', async () => {
    const up = await upload(undefined, { bytes: Buffer.from('x'), name: 'x.txt', type: 'text/plain' });
    expect(up.status).toBe(401);
    expect(up.body.message).toBe('Session expired');
  });
});

describe('status and cancel belong to the owner alone', () => {
  it('answers 404 to another user for status and cancel, exactly as for a missing file', async () => {
    const up = await upload(alice, {
      bytes: Buffer.from(`private ${randomUUID()}`),
      name: 'private.txt',
      type: 'text/plain',
    });
    expect((await status(bob, up.body.id)).status).toBe(404);
    const cancel = await fetch(new URL(`/process/cancel/${up.body.id}`, app.url), {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: `Bearer ${bob}` },
    });
    expect(cancel.status).toBe(404);
    expect((await status(alice, up.body.id)).status).toBe(200);
    expect((await status(alice, 'not-a-uuid')).status).toBe(404);
  });
});
