import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobInfo, BlobStore } from '@kaboodle/platform';
import { contentDisposition } from '@kaboodle/platform';
import { fetchUrlIntoBlob, nameFromResponse, parseFetchUrl } from './fetch-url.ts';
import { createAddressPolicy } from './url-guard.ts';

// A blob store in memory: what the fetch streamed, per key (the real adapters have their own contract suite).
function memoryBlobs(): BlobStore & { objects: Map<string, Buffer> } {
  const objects = new Map<string, Buffer>();
  return {
    kind: 'local',
    objects,
    async put(key, body: Readable, { contentType }) {
      const parts: Buffer[] = [];
      for await (const c of body) parts.push(c as Buffer);
      objects.set(key, Buffer.concat(parts));
      return { key, size: objects.get(key)!.length, contentType, lastModified: new Date() } as BlobInfo;
    },
    async get() {
      throw new Error('not used');
    },
    async stat() {
      return null;
    },
    async delete(key) {
      objects.delete(key);
    },
    async *list() {},
    async ping() {},
    async close() {},
  };
}

describe('names and addresses of pasted URLs', () => {
  it('takes the name from Content-Disposition (filename* first), else from the URL path, else the host', () => {
    const u = new URL('https://example.org/papers/On%20Beads.pdf?x=1');
    expect(nameFromResponse(u, `attachment; filename="a.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`)).toBe(
      'résumé.pdf',
    );
    expect(nameFromResponse(u, 'inline; filename="report \\"final\\".pdf"')).toBe('report "final".pdf');
    expect(nameFromResponse(u, 'attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(nameFromResponse(u, undefined)).toBe('On Beads.pdf');
    expect(nameFromResponse(new URL('https://example.org/'), undefined)).toBe('example.org');
  });

  it('accepts only http and https addresses without credentials', () => {
    expect(parseFetchUrl(' https://example.org/a ').href).toBe('https://example.org/a');
    for (const bad of [
      'ftp://example.org/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'example.org',
      '',
      null,
    ]) {
      expect(() => parseFetchUrl(bad), String(bad)).toThrow(
        'Enter a valid web address starting with http:// or https://',
      );
    }
    expect(() => parseFetchUrl('http://user:pw@example.org/')).toThrow(/user name or password/);
  });

  it('builds a Content-Disposition that cannot be broken out of and keeps the exact name', () => {
    const h = contentDisposition('attachment', 'a"b\\c\r\nd—é.txt');
    expect(h).toMatch(/^attachment; filename=a_b_c__d__\.txt; filename\*=UTF-8''/);
    expect(decodeURIComponent(h.split("UTF-8''")[1]!)).toBe('a"b\\c\r\nd—é.txt');
  });
});

describe('fetchUrlIntoBlob resolves names itself', () => {
  let server: ReturnType<typeof createServer>;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('pinned'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  const opts = (allow: string[], addresses: string[]) => ({
    policy: createAddressPolicy(allow),
    timeoutMs: 5_000,
    maxRedirects: 2,
    resolve: async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  });

  it('refuses a name when any of its addresses is internal (a public one first does not help)', async () => {
    const blobs = memoryBlobs();
    await expect(
      fetchUrlIntoBlob(
        new URL(`http://files.example:${port}/a.txt`),
        blobs,
        'k',
        opts([], ['93.184.216.34', '127.0.0.2']),
      ),
    ).rejects.toThrow('This link points to a private or local network address');
    expect(blobs.objects.size).toBe(0);
  });

  it('connects to the address it checked, whatever the name would resolve to later', async () => {
    const blobs = memoryBlobs();
    // the name is allowed by the operator and "resolves" to the test server: the bytes come from there
    const got = await fetchUrlIntoBlob(
      new URL(`http://files.example:${port}/a.txt`),
      blobs,
      'k',
      opts(['files.example'], ['127.0.0.2']),
    );
    expect(got).toMatchObject({ name: 'a.txt', contentType: 'text/plain', size: 6 });
    expect(blobs.objects.get('k')!.toString()).toBe('pinned');
  });
});
