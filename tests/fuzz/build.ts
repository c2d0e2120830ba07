// Turns a plan into the exact bytes of one request: the caller's credentials (good, forged, expired,
// revoked, or cookie-borne without the CSRF rule), the path with ids resolved against what each person
// owns, the query, and the body (JSON, multipart, or one of the hostile variants of either), and for
// protocol cases the HTTP framing itself bent.
import { createHmac, randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import type { Accounts, Person } from './accounts.ts';
import { fillPath } from './openapi.ts';
import type { FuzzOperation } from './openapi.ts';
import type {
  BadToken,
  BodyPlan,
  Caller,
  FilePlan,
  JsonHostile,
  MultipartHostile,
  PathValue,
  Plan,
  ProtocolHostile,
} from './plans.ts';
import { fileBytes } from './small-files.ts';
import type { WireRequest } from './wire.ts';

export interface BuildState {
  accounts: Accounts;
  /** Ids each person's answers named (fodder for own-id cases), canaries excluded. */
  ownIds(person: Person): readonly string[];
  /** Ids the other person may never reach: their canaries and everything else they own. */
  foreignIds(person: Person): readonly string[];
  marker(person: Person): string;
  /** The target's public signing keys (for the HS256-with-the-public-key forgery). */
  jwks: unknown;
}

export const other = (p: Person): Person => (p === 'alice' ? 'bob' : 'alice');

const b64url = (v: unknown) =>
  Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

function decodeJwt(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
} {
  const [h = '', p = '', s = ''] = token.split('.');
  const parse = (x: string) => {
    try {
      return JSON.parse(Buffer.from(x, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  return { header: parse(h), payload: parse(p), signature: s };
}

function badAuthorization(kind: BadToken, person: Person, state: BuildState): Array<[string, string]> {
  const token = state.accounts.current(person)?.token ?? '';
  const { header, payload, signature } = decodeJwt(token);
  const otherId = state.accounts.identitiesOf(other(person)).at(-1)?.userId ?? 'someone-else';
  const bearer = (t: string): Array<[string, string]> => [['Authorization', `Bearer ${t}`]];
  switch (kind) {
    case 'none':
      return [];
    case 'empty-bearer':
      return [['Authorization', 'Bearer ']];
    case 'basic':
      return [['Authorization', `Basic ${Buffer.from('alice:secret').toString('base64')}`]];
    case 'garbage':
      return bearer(randomBytes(48).toString('base64url'));
    case 'forged-signature': {
      const flipped = signature.slice(0, -6) + (signature.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA');
      return bearer(`${token.split('.').slice(0, 2).join('.')}.${flipped}`);
    }
    case 'swapped-subject':
      return bearer(`${b64url(header)}.${b64url({ ...payload, sub: otherId })}.${signature}`);
    case 'alg-none':
      return bearer(
        `${b64url({ ...header, alg: 'none' })}.${b64url({ ...payload, sub: otherId, exp: 4102444800 })}.`,
      );
    case 'hs256-with-public-key': {
      const h = b64url({ ...header, alg: 'HS256' });
      const p = b64url({ ...payload, sub: otherId, exp: 4102444800 });
      const key = JSON.stringify(state.jwks);
      return bearer(`${h}.${p}.${createHmac('sha256', key).update(`${h}.${p}`).digest('base64url')}`);
    }
    case 'expired':
      // a real one once the first tokens are old enough; until then, one whose exp was edited
      return bearer(
        state.accounts.expiredToken() ??
          `${b64url(header)}.${b64url({ ...payload, exp: 1_000_000_000 })}.${signature}`,
      );
    case 'revoked':
      return bearer(state.accounts.revokedTokens[0] ?? token.slice(0, -2));
    case 'oversized':
      return bearer(`${token}${'A'.repeat(12_000)}`);
  }
}

function credentials(caller: Caller, state: BuildState): Array<[string, string]> {
  const xrw: [string, string] = ['X-Requested-With', 'XMLHttpRequest'];
  if (caller.kind === 'bad-token') return [xrw, ...badAuthorization(caller.token, caller.person, state)];
  const session = state.accounts.current(caller.person);
  const token = session?.token ?? '';
  const csrf = session?.cookies.get('kaboodle_csrf') ?? randomBytes(16).toString('base64url');
  const cookie: [string, string] = ['Cookie', `kaboodle_access=${token}; kaboodle_csrf=${csrf}`];
  if (caller.kind === 'person')
    return caller.via === 'bearer'
      ? [xrw, ['Authorization', `Bearer ${token}`]]
      : [xrw, cookie, ['X-CSRF-Token', csrf]];
  switch (caller.variant) {
    case 'no-x-requested-with':
      return [cookie, ['X-CSRF-Token', csrf]];
    case 'no-csrf-token':
      return [xrw, cookie];
    case 'wrong-csrf-token':
      return [xrw, cookie, ['X-CSRF-Token', `${csrf}x`]];
    case 'foreign-origin':
      return [xrw, cookie, ['X-CSRF-Token', csrf], ['Origin', 'https://evil.example']];
  }
}

const asText = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : v === undefined
      ? ''
      : typeof v === 'object' && v !== null
        ? JSON.stringify(v)
        : String(v);

function pathSegment(v: PathValue, person: Person, state: BuildState): string {
  if (v.kind === 'raw') return v.segment;
  if (v.kind === 'value') return encodeURIComponent(asText(v.value));
  const pool = v.from === 'own' ? state.ownIds(person) : v.from === 'other' ? state.foreignIds(person) : [];
  return encodeURIComponent(pool.length ? pool[v.pick % pool.length]! : `${randomBytes(8).toString('hex')}`);
}

function queryString(entries: Array<[string, unknown]>): string {
  const parts: string[] = [];
  for (const [k, v] of entries) {
    const values = Array.isArray(v) ? v : [v];
    for (const one of values) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(asText(one))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

// ------------------------------------------------------------------ multipart

const CRLF = '\r\n';
const part = (boundary: string, headers: string[], content: Buffer | string) =>
  Buffer.concat([
    Buffer.from(`--${boundary}${CRLF}${headers.join(CRLF)}${CRLF}${CRLF}`),
    Buffer.from(content),
    Buffer.from(CRLF),
  ]);
const closing = (boundary: string) => Buffer.from(`--${boundary}--${CRLF}`);
const quoted = (name: string) => name.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

function filePart(boundary: string, field: string, file: FilePlan, bytes: Buffer): Buffer {
  return part(
    boundary,
    [
      `Content-Disposition: form-data; name="${field}"; filename="${quoted(file.name)}"`,
      ...(file.type ? [`Content-Type: ${file.type}`] : []),
    ],
    bytes,
  );
}

function multipartBody(
  fields: Record<string, unknown>,
  fileField: string | undefined,
  file: FilePlan | undefined,
  bytes: Buffer | undefined,
  boundary: string,
): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    if (v !== undefined)
      parts.push(part(boundary, [`Content-Disposition: form-data; name="${quoted(k)}"`], asText(v)));
  if (fileField && file && bytes) parts.push(filePart(boundary, fileField, file, bytes));
  return Buffer.concat([...parts, closing(boundary)]);
}

function hostileMultipart(
  variant: MultipartHostile,
  file: FilePlan,
  bytes: Buffer,
): Pick<WireRequest, 'body' | 'delivery'> & { type: string } {
  const b = `----fuzz${file.seed}`;
  const type = `multipart/form-data; boundary=${b}`;
  const good = Buffer.concat([filePart(b, 'file', file, bytes), closing(b)]);
  const disp = (extra: string) => `Content-Disposition: form-data; name="file"${extra}`;
  switch (variant) {
    case 'no-closing-boundary':
      return {
        type,
        body: Buffer.concat([Buffer.from(`--${b}${CRLF}${disp('; filename="a.txt"')}${CRLF}${CRLF}`), bytes]),
      };
    case 'no-boundary-param':
      return { type: 'multipart/form-data', body: good };
    case 'wrong-boundary':
      return { type: 'multipart/form-data; boundary=not-the-one', body: good };
    case 'empty-boundary':
      return { type: 'multipart/form-data; boundary=', body: good };
    case 'quoted-boundary':
      return { type: `multipart/form-data; boundary="${b}"`, body: good };
    case 'overlong-boundary': {
      const long = 'L'.repeat(5000);
      return {
        type: `multipart/form-data; boundary=${long}`,
        body: Buffer.concat([filePart(long, 'file', file, bytes), closing(long)]),
      };
    }
    case 'boundary-never-appears':
      return { type, body: bytes.length ? bytes : Buffer.from('nothing multipart here') };
    case 'no-content-disposition':
      return { type, body: Buffer.concat([part(b, ['Content-Type: text/plain'], bytes), closing(b)]) };
    case 'disposition-without-name':
      return {
        type,
        body: Buffer.concat([
          part(b, ['Content-Disposition: form-data; filename="a.txt"'], bytes),
          closing(b),
        ]),
      };
    case 'rfc2231-filename':
      return {
        type,
        body: Buffer.concat([
          part(
            b,
            [disp("; filename*=UTF-8''%F0%9F%93%84%20r%C3%A9sum%C3%A9.txt"), 'Content-Type: text/plain'],
            bytes,
          ),
          closing(b),
        ]),
      };
    case 'bad-percent-filename':
      return {
        type,
        body: Buffer.concat([
          part(b, [disp("; filename*=UTF-8''%ZZ%E2%28%A1.txt"), 'Content-Type: text/plain'], bytes),
          closing(b),
        ]),
      };
    case 'two-files':
      return {
        type,
        body: Buffer.concat([
          filePart(b, 'file', file, bytes),
          filePart(b, 'file', { ...file, name: 'second.txt' }, bytes),
          closing(b),
        ]),
      };
    case 'file-in-other-field':
      return { type, body: Buffer.concat([filePart(b, 'attachment', file, bytes), closing(b)]) };
    case 'file-without-filename':
      return {
        type,
        body: Buffer.concat([part(b, [disp(''), 'Content-Type: text/plain'], bytes), closing(b)]),
      };
    case 'many-fields':
      return {
        type,
        body: Buffer.concat([
          ...Array.from({ length: 400 }, (_, i) =>
            part(b, [`Content-Disposition: form-data; name="f${i}"`], 'v'),
          ),
          filePart(b, 'file', file, bytes),
          closing(b),
        ]),
      };
    case 'huge-field':
      return {
        type,
        body: Buffer.concat([
          part(b, ['Content-Disposition: form-data; name="instructions"'], 'i'.repeat(300_000)),
          good,
        ]),
      };
    case 'many-part-headers':
      return {
        type,
        body: Buffer.concat([
          part(
            b,
            [
              disp('; filename="h.txt"'),
              ...Array.from({ length: 3000 }, (_, i) => `X-H${i}: ${'v'.repeat(20)}`),
            ],
            bytes,
          ),
          closing(b),
        ]),
      };
    case 'nested-multipart': {
      const inner = 'inner-b';
      const nested = Buffer.concat([filePart(inner, 'file', file, bytes), closing(inner)]);
      return {
        type,
        body: Buffer.concat([
          part(b, [disp('; filename="n.txt"'), `Content-Type: multipart/mixed; boundary=${inner}`], nested),
          closing(b),
        ]),
      };
    }
    case 'json-as-multipart':
      return { type, body: Buffer.from(JSON.stringify({ url: 'https://example.com/a.pdf' })) };
    case 'only-preamble':
      return { type, body: Buffer.from(`preamble only, then the end${CRLF}--${b}--${CRLF}`) };
    case 'cut-mid-file': {
      const big = Buffer.concat([
        filePart(b, 'file', { ...file, name: 'cut.txt', type: 'text/plain' }, Buffer.alloc(600_000, 'c')),
        closing(b),
      ]);
      return { type, body: big, delivery: { kind: 'cut', after: 300_000, then: 'end' } };
    }
    case 'dropped-mid-file': {
      const big = Buffer.concat([
        filePart(b, 'file', { ...file, name: 'drop.txt', type: 'text/plain' }, Buffer.alloc(600_000, 'd')),
        closing(b),
      ]);
      return { type, body: big, delivery: { kind: 'cut', after: 300_000, then: 'destroy' } };
    }
    case 'slow-body':
      return { type, body: good, delivery: { kind: 'slow', pieces: 8, gapMs: 150 } };
    case 'lf-only-newlines':
      return { type, body: Buffer.from(good.toString('latin1').replaceAll(CRLF, '\n'), 'latin1') };
    case 'latin1-filename':
      return {
        type,
        body: Buffer.concat(
          [
            part(b, [disp('; filename="r\xe9sum\xe9.txt"'), 'Content-Type: text/plain'], bytes),
            closing(b),
          ].map((x) => Buffer.from(x.toString('latin1'), 'latin1')),
        ),
      };
    case 'no-file-part':
      return {
        type,
        body: Buffer.concat([
          part(b, ['Content-Disposition: form-data; name="instructions"'], 'no file'),
          closing(b),
        ]),
      };
  }
}

// ------------------------------------------------------------------ hostile JSON

let bomb: Buffer | undefined;
/** 64 MiB of JSON in ~64 kB of gzip, made once. */
const gzipBomb = () => (bomb ??= zlib.gzipSync(`{"pad":"${' '.repeat(64 * 1024 * 1024)}"}`, { level: 9 }));

function hostileJson(
  variant: JsonHostile,
  value: unknown,
): { body: Buffer; headers: Array<[string, string]>; delivery?: WireRequest['delivery'] } {
  const json = JSON.stringify(value ?? {});
  const ct: [string, string] = ['Content-Type', 'application/json'];
  const obj = json.startsWith('{') && json !== '{}' ? json.slice(1, -1) : '';
  const withObj = (prefix: string) => Buffer.from(`{${prefix}${obj ? `,${obj}` : ''}}`);
  switch (variant) {
    case 'too-large':
      return { body: Buffer.from(JSON.stringify({ pad: 'a'.repeat(1_200_000) })), headers: [ct] };
    case 'deeply-nested-arrays':
      return { body: Buffer.from(`${'['.repeat(20_000)}${']'.repeat(20_000)}`), headers: [ct] };
    case 'deeply-nested-objects':
      return { body: Buffer.from(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`), headers: [ct] };
    case 'duplicate-keys':
      return {
        body: Buffer.from(
          obj ? `{${obj.replace(/"(\w+)":/g, '"$1":{"dup":true},"$1":')}}` : '{"a":1,"a":{"b":2}}',
        ),
        headers: [ct],
      };
    case 'proto-pollution':
      return {
        body: withObj(
          '"__proto__":{"polluted":"yes","role":"admin"},"constructor":{"prototype":{"polluted":"yes"}}',
        ),
        headers: [ct],
      };
    case 'charset-utf16':
      return {
        body: Buffer.from(json, 'utf16le'),
        headers: [['Content-Type', 'application/json; charset=utf-16le']],
      };
    case 'charset-unknown':
      return { body: Buffer.from(json), headers: [['Content-Type', 'application/json; charset=x-klingon']] };
    case 'charset-latin1':
      return {
        body: Buffer.from(json, 'latin1'),
        headers: [['Content-Type', 'application/json; charset=iso-8859-1']],
      };
    case 'gzip':
      return { body: zlib.gzipSync(json), headers: [ct, ['Content-Encoding', 'gzip']] };
    case 'gzip-bomb':
      return {
        body: gzipBomb(),
        headers: [ct, ['Content-Encoding', 'gzip']],
      };
    case 'brotli-garbage':
      return { body: randomBytes(256), headers: [ct, ['Content-Encoding', 'br']] };
    case 'unknown-encoding':
      return { body: Buffer.from(json), headers: [ct, ['Content-Encoding', 'x-fuzz']] };
    case 'invalid-utf8':
      return {
        body: Buffer.concat([
          Buffer.from('{"instructions":"'),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
          Buffer.from(obj ? `",${obj}}` : '"}'),
        ]),
        headers: [ct],
      };
    case 'lone-surrogate':
      return { body: withObj('"instructions":"\\ud800\\udfff\\ud800"'), headers: [ct] };
    case 'nul-bytes':
      return { body: Buffer.from(json.replace(/":"/g, '":"\\u0000')), headers: [ct] };
    case 'text-plain':
      return { body: Buffer.from(json), headers: [['Content-Type', 'text/plain']] };
    case 'form-urlencoded':
      return {
        body: Buffer.from('url=https%3A%2F%2Fexample.com&instructions=x'),
        headers: [['Content-Type', 'application/x-www-form-urlencoded']],
      };
    case 'no-content-type':
      return { body: Buffer.from(json), headers: [] };
    case 'empty-with-type':
      return { body: Buffer.alloc(0), headers: [ct, ['Content-Length', '0']] };
    case 'literal-null':
      return { body: Buffer.from('null'), headers: [ct] };
    case 'literal-string':
      return { body: Buffer.from('"just a string"'), headers: [ct] };
    case 'literal-array':
      return { body: Buffer.from(`[${json}]`), headers: [ct] };
    case 'huge-number':
      return {
        body: Buffer.from(
          json.replace(/:(-?\d[\d.e+-]*)/g, ':1e999').replace(/:"[^"]*"/, ':123456789012345678901234567890'),
        ),
        headers: [ct],
      };
    case 'truncated':
      return { body: Buffer.from(json.slice(0, Math.max(1, Math.floor(json.length / 2)))), headers: [ct] };
    case 'bom':
      return { body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]), headers: [ct] };
    case 'length-too-short':
      return {
        body: Buffer.from(json),
        headers: [ct, ['Content-Length', String(Math.max(0, json.length - 3))]],
      };
    case 'chunked-bad-size':
      return {
        body: Buffer.from(`zz${CRLF}${json}${CRLF}0${CRLF}${CRLF}`),
        headers: [ct, ['Transfer-Encoding', 'chunked']],
      };
  }
}

// ------------------------------------------------------------------ protocol

function bendProtocol(variant: ProtocolHostile, req: WireRequest, host: string): WireRequest {
  const h = (extra: Array<[string, string]>) => ({ ...req, headers: [...req.headers, ...extra] });
  const line = (s: string) => Buffer.from(s, 'latin1');
  switch (variant) {
    case 'header-flood':
      return h(Array.from({ length: 3000 }, (_, i): [string, string] => [`X-Flood-${i}`, 'v']));
    case 'huge-header':
      return h([['X-Big', 'a'.repeat(40_000)]]);
    case 'huge-url':
      return { ...req, path: `${req.path}${req.path.includes('?') ? '&' : '?'}q=${'a'.repeat(20_000)}` };
    case 'slow-headers':
      return { ...req, slowHeadMs: 4, timeoutMs: 60_000 };
    case 'garbage-bytes':
      return { ...req, raw: randomBytes(512) };
    case 'bad-method':
      return { ...req, method: 'FUZZ' };
    case 'http10':
      return {
        ...req,
        raw: line(
          `${req.method} ${req.path} HTTP/1.0\r\n${req.headers.map(([n, v]) => `${n}: ${v}`).join('\r\n')}\r\n\r\n`,
        ),
      };
    case 'absolute-form':
      return { ...req, path: `http://evil.example${req.path}` };
    case 'cl-and-te':
      return h([
        ['Transfer-Encoding', 'chunked'],
        ['Content-Length', '4'],
      ]);
    case 'negative-length':
      return {
        ...req,
        headers: [
          ...req.headers.filter(([n]) => n.toLowerCase() !== 'content-length'),
          ['Content-Length', '-1'],
        ],
      };
    case 'non-numeric-length':
      return {
        ...req,
        headers: [
          ...req.headers.filter(([n]) => n.toLowerCase() !== 'content-length'),
          ['Content-Length', 'lots'],
        ],
      };
    case 'huge-length-then-close':
      return {
        ...req,
        headers: [
          ...req.headers.filter(([n]) => n.toLowerCase() !== 'content-length'),
          ['Content-Length', '99999999999'],
        ],
        body: req.body ?? Buffer.from('{'),
        delivery: { kind: 'cut', after: 64, then: 'end' },
      };
    case 'obs-fold':
      return h([['X-Folded', 'first\r\n  continued']]);
    case 'nul-in-header':
      return h([['X-Nul', 'a\u0000b']]);
    case 'non-ascii-header':
      return h([['X-Utf8', 'résumé €\u{1F600}']]);
    case 'pipelined': {
      const one = (close: boolean) =>
        `GET ${req.path} HTTP/1.1\r\nHost: ${host}\r\n${req.headers
          .filter(([n]) => !/^content-/i.test(n))
          .map(([n, v]) => `${n}: ${v}`)
          .join('\r\n')}\r\nConnection: ${close ? 'close' : 'keep-alive'}\r\n\r\n`;
      return { ...req, raw: Buffer.from(Array.from({ length: 20 }, (_, i) => one(i === 19)).join('')) };
    }
    case 'duplicate-authorization':
      return h([['Authorization', 'Bearer not-the-first-one']]);
    case 'duplicate-content-length':
      return h([
        ['Content-Length', '0'],
        ['Content-Length', '7'],
      ]);
    case 'expect-continue':
      return h([['Expect', '100-continue']]);
    case 'bad-percent-path':
      return { ...req, path: `${req.path.split('?')[0]}%E0%A4%A` };
  }
}

// ------------------------------------------------------------------ the request

export interface Built {
  request: WireRequest;
  /** The person whose credentials it carries (undefined: none of theirs). */
  as?: Person;
  /** Ids of the other person this request carries on purpose (they may be echoed back). */
  carried: string[];
}

export function buildRequest(plan: Plan, op: FuzzOperation, state: BuildState, host: string): Built {
  const person = plan.caller.person;
  const segments: Record<string, string> = {};
  for (const [name, v] of Object.entries(plan.path)) segments[name] = pathSegment(v, person, state);
  const path = fillPath(op.path, segments) + queryString(plan.query);
  const headers = credentials(plan.caller, state);
  let request: WireRequest = { method: op.method, path, headers, timeoutMs: 30_000 };
  request = withBody(request, plan.body, person, state);
  if (plan.protocol) request = bendProtocol(plan.protocol, request, host);
  const carried = Object.values(segments).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  return { request, as: plan.caller.kind === 'person' ? person : undefined, carried };
}

function withBody(req: WireRequest, body: BodyPlan, person: Person, state: BuildState): WireRequest {
  const marker = state.marker(person);
  switch (body.kind) {
    case 'none':
      return req;
    case 'json':
      return body.value === undefined
        ? req
        : {
            ...req,
            headers: [...req.headers, ['Content-Type', 'application/json']],
            body: Buffer.from(JSON.stringify(body.value)),
          };
    case 'json-hostile': {
      const h = hostileJson(body.variant, body.value);
      return {
        ...req,
        headers: [...req.headers, ...h.headers],
        body: h.body,
        ...(h.delivery ? { delivery: h.delivery } : {}),
      };
    }
    case 'multipart': {
      const boundary = `----fuzz${randomBytes(6).toString('hex')}`;
      const bytes = body.file ? fileBytes(body.file, marker) : undefined;
      return {
        ...req,
        headers: [...req.headers, ['Content-Type', `multipart/form-data; boundary=${boundary}`]],
        body: multipartBody(body.fields, body.fileField, body.file, bytes, boundary),
      };
    }
    case 'multipart-hostile': {
      const m = hostileMultipart(body.variant, body.file, fileBytes(body.file, marker));
      return {
        ...req,
        headers: [...req.headers, ['Content-Type', m.type]],
        body: m.body!,
        ...(m.delivery ? { delivery: m.delivery } : {}),
        timeoutMs: 60_000,
      };
    }
  }
}
