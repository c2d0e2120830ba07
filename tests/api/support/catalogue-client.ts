// Helpers for the catalogue API suites: users, uploads through the real ingestion routes, waiting for
// a file to be stored, and plain bearer-token requests that keep headers and raw bytes for checks.
import { randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

export interface Answer<T = unknown> {
  status: number;
  body: T;
  text: string;
  bytes: Buffer;
  headers: Headers;
}

export function createCatalogueClient(baseUrl: () => string) {
  async function request<T = unknown>(
    method: string,
    path: string,
    token: string | undefined,
    body?: unknown,
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(new URL(path, baseUrl()), {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json')) {
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // exports stream JSON too; a cut one stays text
      }
    }
    return { status: res.status, body: parsed as T, text, bytes, headers: res.headers };
  }

  async function register(name: string): Promise<string> {
    const res = await request<{ token: string }>('POST', '/api/auth/register', undefined, {
      email: `${name}-${randomUUID()}@example.com`,
      password: 'a long enough passphrase',
      name,
    });
    if (res.status !== 201) throw new Error(`register ${name}: ${res.status} ${res.text}`);
    return res.body.token;
  }

  async function upload(
    token: string,
    file: { bytes: Buffer; name: string; type: string },
    destination: 'auto' | 'document' | 'inventory' = 'auto',
  ): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    form.append('destination', destination);
    const res = await fetch(new URL('/process', baseUrl()), {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await res.json()) as { id: string };
    if (res.status !== 202) throw new Error(`upload ${file.name}: ${res.status} ${JSON.stringify(body)}`);
    return body.id;
  }

  /** Wait until the file has ended; returns its status body. */
  async function settled(token: string, fileId: string, timeoutMs = 120_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const res = await request<{ status: string; error: string | null; result?: unknown }>(
        'GET',
        `/process/status/${fileId}`,
        token,
      );
      if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
      if (Date.now() > until)
        throw new Error(`file ${fileId} still ${res.body.status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  return { request, register, upload, settled };
}

/** A solid-colour PNG (w×h, RGB), so the vision step has a real picture to look at. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3)]);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
