// A small client for the ingestion API (uploads, status, the Media Hub routes) used by the api, chaos
// and bench suites: register a user, upload a file or a URL, poll its status.
import { randomUUID } from 'node:crypto';

export interface FileBody {
  id: string;
  file_id: string;
  name: string;
  size: number;
  content_type: string;
  status: string;
  stage: string | null;
  progress: number;
  error: string | null;
  attempt: number;
  destination: string;
  instructions: string;
  source_url: string | null;
  result: null | { type: string; id: string; url: string };
  created_at: string;
  updated_at: string;
  duplicate?: boolean;
  message?: string;
  code?: string;
}

export interface Answer<T = FileBody> {
  status: number;
  body: T;
  headers: Headers;
}

export function ingestionClient(baseUrl: string) {
  const url = (path: string) => new URL(path, baseUrl);
  const headers = (token?: string, extra: Record<string, string> = {}) => ({
    'x-requested-with': 'XMLHttpRequest',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...extra,
  });
  async function call<T = FileBody>(
    method: string,
    path: string,
    token?: string,
    json?: unknown,
  ): Promise<Answer<T>> {
    const res = await fetch(url(path), {
      method,
      headers: headers(token, json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON (file content): keep the text
    }
    return { status: res.status, body: body as T, headers: res.headers };
  }

  return {
    call,
    /** A new user; returns a bearer token. */
    async register(name: string): Promise<string> {
      const res = await fetch(url('/api/auth/register'), {
        method: 'POST',
        headers: headers(undefined, { 'content-type': 'application/json' }),
        body: JSON.stringify({
          email: `${name}-${randomUUID()}@example.com`,
          password: 'a long enough passphrase',
          name,
        }),
      });
      if (res.status !== 201) throw new Error(`register ${name}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { token: string }).token;
    },
    async upload(
      token: string | undefined,
      file: { bytes: Uint8Array; name: string; type: string },
      fields: Record<string, string> = {},
      path = '/process',
    ): Promise<Answer> {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const res = await fetch(url(path), { method: 'POST', headers: headers(token), body: form });
      return { status: res.status, body: (await res.json()) as FileBody, headers: res.headers };
    },
    fetchUrl: (token: string, body: Record<string, unknown>) => call('POST', '/process', token, body),
    status: (token: string, id: string) => call('GET', `/process/status/${id}`, token),
    /** Poll until the status matches (default: an end state); returns the last body. */
    async waitFor(
      token: string,
      id: string,
      done: (f: FileBody) => boolean = (f) => ['completed', 'failed', 'cancelled'].includes(f.status),
      timeoutMs = 90_000,
    ): Promise<FileBody> {
      const until = Date.now() + timeoutMs;
      let last: FileBody | undefined;
      while (Date.now() < until) {
        const r = await call('GET', `/process/status/${id}`, token);
        if (r.status === 200) {
          last = r.body;
          if (done(last)) return last;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      throw new Error(
        `file ${id} did not reach the expected state in ${timeoutMs} ms: ${JSON.stringify(last)}`,
      );
    },
  };
}

export type IngestionClient = ReturnType<typeof ingestionClient>;

/**
 * Processing has finished its part: completed (the catalogue stored the result), or — while no
 * catalogue publishes COMPLETED in this process — handed over at STORING 90. Failed does not count.
 */
export const processed = (f: FileBody): boolean =>
  f.status === 'completed' || f.status === 'failed' || (f.status === 'processing' && f.progress >= 90);

/** The user id inside a bearer token (its `sub`), e.g. to find the user's blobs. */
export function tokenSubject(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
    sub: string;
  };
  return payload.sub;
}
