// The bodies of requests, well-formed and hostile: multipart forms (and their broken variants:
// missing or wrong boundaries, cut-off parts, two files, floods of fields and part headers, odd
// filename encodings, slow or dropped bodies) and JSON bodies in every way a parser can be upset
// (too large, nested deep, odd charsets and encodings, invalid UTF-8, lying lengths).
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import type { FilePlan, JsonHostile, MultipartHostile } from './plans.ts';
import type { WireRequest } from './wire.ts';

export const asText = (v: unknown): string =>
  typeof v === 'string'
    ? v
    : v === undefined
      ? ''
      : typeof v === 'object' && v !== null
        ? JSON.stringify(v)
        : String(v);

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

export function multipartBody(
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

export function hostileMultipart(
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

export function hostileJson(
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
