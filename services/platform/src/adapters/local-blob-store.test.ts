import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalBlobStore } from './local-blob-store.ts';
import { openBlobStore } from './open-blob-store.ts';

const text = (s: string): Readable => Readable.from([Buffer.from(s)]);

describe('createLocalBlobStore', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'kaboodle-local-blob-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('keeps `a/b` and `a/b/c` apart, as S3 does', async () => {
    const store = createLocalBlobStore({ root });
    await store.put('a/b', text('parent'), { contentType: 'text/plain' });
    await store.put('a/b/c', text('child'), { contentType: 'text/csv' });
    expect(await store.stat('a/b')).toMatchObject({ size: 6, contentType: 'text/plain' });
    expect(await store.stat('a/b/c')).toMatchObject({ size: 5, contentType: 'text/csv' });
  });

  it('leaves no temp files behind and prunes emptied directories on delete', async () => {
    const store = createLocalBlobStore({ root });
    await store.put('x/y/z.txt', text('z'), { contentType: 'text/plain' });
    await store.put('keep.txt', text('k'), { contentType: 'text/plain' });
    await store.put('x/y/bad', text('too long'), { contentType: 'text/plain', size: 2 }).catch(() => {});
    expect(await readdir(join(root, 'tmp'))).toEqual([]);
    await store.delete('x/y/z.txt');
    expect(await readdir(join(root, 'objects'))).toEqual(['keep.txt.blob', 'keep.txt.blob.json']);
  });

  it('refuses work after close', async () => {
    const store = createLocalBlobStore({ root });
    await store.close();
    await expect(store.ping()).rejects.toThrow(/closed/);
  });
});

describe('openBlobStore', () => {
  it('uses a directory under the data dir when S3_ENDPOINT is not set', () => {
    expect(openBlobStore({ bucket: 'files', dataDir: '/tmp/x' }).kind).toBe('local');
  });

  it('uses S3 when S3_ENDPOINT is set, and says what is wrong with its settings', () => {
    const s3 = { s3AccessKey: 'k', s3SecretKey: 's', bucket: 'files', dataDir: '/tmp/x' };
    expect(openBlobStore({ ...s3, s3Endpoint: 'http://127.0.0.1:9000' }).kind).toBe('s3');
    expect(() => openBlobStore({ ...s3, s3Endpoint: 'not a url' })).toThrow(/S3_ENDPOINT is not a URL/);
    expect(() => openBlobStore({ ...s3, s3Endpoint: 'ftp://h' })).toThrow(/must be http:\/\/ or https:\/\//);
    expect(() => openBlobStore({ ...s3, s3AccessKey: '', s3Endpoint: 'http://h' })).toThrow(
      /S3_ACCESS_KEY or S3_SECRET_KEY is missing/,
    );
  });
});
