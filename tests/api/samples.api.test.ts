// The first-run sample library over real HTTP against `kaboodle --target=all` (issue 18): loading
// stores the sample files like uploads, the real pipeline makes documents and inventory items of
// them, marked sample; loading again adds nothing; one DELETE removes the files and all they made;
// another user sees none of it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';

const data = tempDataDir();
let app: KaboodleProcess;
let alice: string;
let bob: string;

interface FileBody {
  id: string;
  name: string;
  status: string;
  sample: boolean;
  result: { type: string; id: string } | null;
}

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

async function call<T>(token: string, method: string, path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(new URL(path, app.url), {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' },
  });
  return { status: res.status, body: (await res.json()) as T };
}

beforeAll(async () => {
  app = await startKaboodleProcess({
    target: 'all',
    env: { KABOODLE_DATA_DIR: data.dir, DATABASE_URL: '', KAFKA_BROKERS: '', S3_ENDPOINT: '' },
  });
  [alice, bob] = await Promise.all([register('alice'), register('bob')]);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  data.remove();
});

describe('the sample library', () => {
  let files: FileBody[] = [];

  it('says none is loaded for a newcomer', async () => {
    expect(await call(alice, 'GET', '/process/samples')).toEqual({
      status: 200,
      body: { loaded: 0, available: 12 },
    });
  });

  it('loads twelve sample files, queued like uploads and marked sample', async () => {
    const res = await call<{ loaded: number; available: number; files: FileBody[] }>(
      alice,
      'POST',
      '/process/samples',
    );
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ loaded: 12, available: 12 });
    files = res.body.files;
    expect(files).toHaveLength(12);
    expect(files.every((f) => f.sample && f.name.startsWith('sample-'))).toBe(true);
  });

  it('processes them into six documents and six inventory items, each marked sample', async () => {
    await expect
      .poll(
        async () => {
          const list = await call<{ files: FileBody[] }>(alice, 'GET', '/process/files?limit=100');
          return list.body.files.filter((f) => f.status === 'completed' || f.status === 'failed').length;
        },
        { timeout: 240_000, interval: 1_000 },
      )
      .toBe(12);
    const list = (await call<{ files: FileBody[] }>(alice, 'GET', '/process/files?limit=100')).body.files;
    expect(list.filter((f) => f.status === 'failed')).toEqual([]);
    expect(list.filter((f) => f.result?.type === 'document')).toHaveLength(6);
    expect(list.filter((f) => f.result?.type === 'inventory_item')).toHaveLength(6);
    const docs = (await call<{ sample: boolean; author: string }[]>(alice, 'GET', '/api/documents?limit=100'))
      .body;
    expect(docs).toHaveLength(6);
    expect(docs.every((d) => d.sample)).toBe(true);
    // written offline with their authors, so the vault's graph has something to link
    expect(new Set(docs.map((d) => d.author))).toEqual(
      new Set(['Elena Moretti', 'Tomas Okonkwo', 'Amara Diallo']),
    );
    const items = (await call<{ sample: boolean }[]>(alice, 'GET', '/api/inventory?limit=100')).body;
    expect(items).toHaveLength(6);
    expect(items.every((i) => i.sample)).toBe(true);
  }, 300_000);

  it('adds nothing when loaded again', async () => {
    const again = await call<{ loaded: number; files: FileBody[] }>(alice, 'POST', '/process/samples');
    expect(again.status).toBe(202);
    expect(again.body.loaded).toBe(12);
    expect(again.body.files).toEqual([]);
  });

  it('shows another user none of it', async () => {
    expect((await call(bob, 'GET', '/process/samples')).body).toEqual({ loaded: 0, available: 12 });
    expect((await call<unknown[]>(bob, 'GET', '/api/documents')).body).toEqual([]);
    // and bob's removal touches nothing of alice's
    expect((await call(bob, 'DELETE', '/process/samples')).body).toEqual({ deleted: 0 });
  });

  it('removes the files and everything made from them in one call, keeping the user’s own', async () => {
    const own = new FormData();
    own.append(
      'file',
      new Blob(['My own field notes about tidal power.\n'], { type: 'text/plain' }),
      'mine.txt',
    );
    const mine = await fetch(new URL('/process', app.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${alice}`, 'x-requested-with': 'XMLHttpRequest' },
      body: own,
    });
    expect(mine.status).toBe(202);
    const removed = await call<{ deleted: number }>(alice, 'DELETE', '/process/samples');
    expect(removed).toEqual({ status: 200, body: { deleted: 12 } });
    expect((await call(alice, 'GET', '/process/samples')).body).toEqual({ loaded: 0, available: 12 });
    await expect
      .poll(
        async () => {
          const docs = (await call<{ sample: boolean }[]>(alice, 'GET', '/api/documents?limit=100')).body;
          const items = (await call<unknown[]>(alice, 'GET', '/api/inventory?limit=100')).body;
          return docs.filter((d) => d.sample).length + items.length;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(0);
    const left = (await call<{ files: FileBody[] }>(alice, 'GET', '/process/files?limit=100')).body.files;
    expect(left.map((f) => f.name)).toEqual(['mine.txt']);
  }, 120_000);
});
