import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createS3BlobStore } from './s3-blob-store.ts';

describe('createS3BlobStore', () => {
  it('fails ping with a "doing X: cause" error when the server does not answer', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const { port } = srv.address() as { port: number };
    await new Promise<void>((r) => srv.close(() => r()));
    const store = createS3BlobStore({
      endPoint: '127.0.0.1',
      port,
      accessKey: 'a',
      secretKey: 'b',
      bucket: 'kaboodle-files',
    });
    await expect(store.ping()).rejects.toThrow(
      /^pinging s3 bucket kaboodle-files: creating s3 bucket kaboodle-files: .*ECONNREFUSED/,
    );
  });

  it('rejects unsafe keys before any request', async () => {
    const store = createS3BlobStore({
      endPoint: '127.0.0.1',
      port: 1,
      accessKey: 'a',
      secretKey: 'b',
      bucket: 'kaboodle-files',
    });
    await expect(store.stat('../x')).rejects.toThrow(/unsafe blob key/);
  });
});
