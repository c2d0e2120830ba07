// A small browser-like HTTP client for the auth API tests: keeps a cookie jar (honouring Path and
// Max-Age), sends X-Requested-With and the CSRF header the way the web client does, and records
// the raw Set-Cookie headers so tests can check cookie flags.

export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names lower-cased → value ('' for flags like HttpOnly). */
  attributes: Map<string, string>;
  raw: string;
}

export function parseSetCookie(raw: string): SetCookie {
  const [pair = '', ...attrs] = raw.split(';');
  const eq = pair.indexOf('=');
  const attributes = new Map<string, string>();
  for (const a of attrs) {
    const i = a.indexOf('=');
    if (i === -1) attributes.set(a.trim().toLowerCase(), '');
    else attributes.set(a.slice(0, i).trim().toLowerCase(), a.slice(i + 1).trim());
  }
  return {
    name: pair.slice(0, eq).trim(),
    value: decodeURIComponent(pair.slice(eq + 1).trim()),
    attributes,
    raw,
  };
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text (e.g. malformed JSON); sent with content-type application/json. */
  rawBody?: string;
  headers?: Record<string, string>;
  bearer?: string;
  /** Send X-Requested-With: XMLHttpRequest (default true, like the web client). */
  xhr?: boolean;
  /** Send X-CSRF-Token from the jar's kaboodle_csrf cookie (default true, like the web client). */
  csrf?: boolean;
  /** Send the jar's cookies (default true). */
  cookies?: boolean;
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
  setCookies: SetCookie[];
}

export interface AuthClient {
  request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: RequestOptions,
  ): Promise<ApiResponse<T>>;
  cookie(name: string): string | undefined;
  setCookie(name: string, value: string, path?: string): void;
  /** A copy of the jar (e.g. a second tab or a thief holding the same cookies). */
  clone(): AuthClient;
  /** A copy of the jar talking to another address (e.g. the same server restarted on a new port). */
  at(baseUrl: string): AuthClient;
}

export function createAuthClient(
  baseUrl: string,
  initial?: Map<string, { value: string; path: string }>,
): AuthClient {
  const jar = new Map(initial);
  const client: AuthClient = {
    async request<T>(method: string, path: string, o: RequestOptions = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
      if (o.xhr !== false) headers['x-requested-with'] = 'XMLHttpRequest';
      if (o.body !== undefined || o.rawBody !== undefined) headers['content-type'] = 'application/json';
      if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
      const csrf = jar.get('kaboodle_csrf')?.value;
      if (o.csrf !== false && csrf) headers['x-csrf-token'] = csrf;
      if (o.cookies !== false) {
        const cookie = [...jar.entries()]
          .filter(([, c]) => path.startsWith(c.path))
          .map(([n, c]) => `${n}=${encodeURIComponent(c.value)}`)
          .join('; ');
        if (cookie) headers.cookie = cookie;
      }
      const res = await fetch(baseUrl + path, {
        method,
        headers,
        body: o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body)),
      });
      const setCookies = res.headers.getSetCookie().map(parseSetCookie);
      for (const c of setCookies) {
        const maxAge = c.attributes.get('max-age');
        const expires = c.attributes.get('expires');
        const gone =
          maxAge === '0' ||
          (maxAge === undefined && expires !== undefined && Date.parse(expires) <= Date.now());
        if (gone) jar.delete(c.name);
        else jar.set(c.name, { value: c.value, path: c.attributes.get('path') ?? '/' });
      }
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep the text
      }
      return { status: res.status, body: body as T, headers: res.headers, setCookies };
    },
    cookie: (name) => jar.get(name)?.value,
    setCookie(name, value, path = '/') {
      jar.set(name, { value, path });
    },
    clone: () => createAuthClient(baseUrl, jar),
    at: (other) => createAuthClient(other, jar),
  };
  return client;
}
