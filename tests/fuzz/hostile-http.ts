// HTTP itself bent: header floods and oversized heads, slow heads, garbage, HTTP/1.0, absolute-form
// targets, request-smuggling framing (Content-Length with Transfer-Encoding, two lengths), folded and
// NUL-bearing headers, pipelining, Expect: 100-continue, undecodable %-escapes.
import { randomBytes } from 'node:crypto';
import type { ProtocolHostile } from './plans.ts';
import { head } from './wire.ts';
import type { WireRequest } from './wire.ts';

// ------------------------------------------------------------------ protocol

export function bendProtocol(variant: ProtocolHostile, req: WireRequest, host: string): WireRequest {
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
      // The same request twenty times on one connection (the last one closes it).
      const one = (close: boolean) =>
        Buffer.concat([
          Buffer.from(
            head(
              {
                ...req,
                headers: [
                  ...req.headers.filter(([n]) => n.toLowerCase() !== 'connection'),
                  ['Connection', close ? 'close' : 'keep-alive'],
                ],
              },
              host,
            ),
          ),
          req.body ?? Buffer.alloc(0),
        ]);
      return { ...req, raw: Buffer.concat(Array.from({ length: 20 }, (_, i) => one(i === 19))) };
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
