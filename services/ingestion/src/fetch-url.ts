// Fetches a pasted URL server-side into the blob store, safely: http/https only; every hop's host is
// resolved here and checked against the address policy, and the connection is pinned to the checked
// address (so DNS cannot answer differently between check and connect); redirects are followed by
// hand, at most maxRedirects, each re-checked; one overall time limit; the body streams into the
// blob store and reading stops at the 20 MB limit.
import { createHash } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { parse as parseDisposition } from 'content-disposition';
import { Agent, request } from 'undici';
import { InputError, TooLargeError, UnavailableError } from '@kaboodle/platform';
import type { BlobStore } from '@kaboodle/platform';
import {
  ALLOWED_TYPES,
  HTML_TYPE,
  MAX_FILE_BYTES,
  SNIFF_BYTES,
  cleanFileName,
  resolveContentType,
  sizeExceededMessage,
  sniffContentType,
  unsupportedTypeMessage,
} from './file-rules.ts';
import type { AddressPolicy } from './url-guard.ts';
import { bareHost } from './url-guard.ts';

/** Said of a pasted link (or a redirect it led to) to a private, loopback or link-local address. */
export const ADDRESS_NOT_ALLOWED =
  'This link points to a private or local network address, which Kaboodle does not fetch';
export const INVALID_URL = 'Enter a valid web address starting with http:// or https://';
export const couldNotFetch = (why: string): string => `Could not fetch the URL: ${why}`;
const MAX_URL_LENGTH = 2048;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface FetchedFile {
  name: string;
  size: number;
  contentType: string;
  sniffedType: string;
  sha256: string;
  /** Where the bytes finally came from (after redirects). */
  finalUrl: string;
}

export interface FetchUrlOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  maxRedirects: number;
  /** DNS resolution (tests may substitute one); defaults to the system resolver. */
  resolve?: (host: string) => Promise<LookupAddress[]>;
}

/** Parse and check what the user pasted; the message says what is wrong. */
export function parseFetchUrl(raw: unknown): URL {
  if (typeof raw !== 'string' || raw.trim() === '') throw new InputError(INVALID_URL);
  const text = raw.trim();
  if (text.length > MAX_URL_LENGTH)
    throw new InputError(`The URL is too long (max ${MAX_URL_LENGTH} characters)`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(INVALID_URL);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InputError(INVALID_URL);
  if (url.username || url.password)
    throw new InputError(couldNotFetch('addresses with a user name or password are not supported'));
  return url;
}

const systemResolve = (host: string): Promise<LookupAddress[]> =>
  dnsLookup(host, { all: true, order: 'ipv4first' });

/** The one address this hop may connect to, or a refusal. */
async function checkedAddress(url: URL, opts: FetchUrlOptions): Promise<LookupAddress> {
  const host = bareHost(url.hostname);
  if (isIP(host)) {
    if (!opts.policy.hostAllowed(host) && !opts.policy.addressAllowed(host)) {
      throw new InputError(ADDRESS_NOT_ALLOWED);
    }
    return { address: host, family: isIP(host) };
  }
  let addresses: LookupAddress[];
  try {
    addresses = await (opts.resolve ?? systemResolve)(host);
  } catch {
    throw new InputError(couldNotFetch('the host name could not be found'));
  }
  if (addresses.length === 0) throw new InputError(couldNotFetch('the host name could not be found'));
  // Every address must pass: a name that also resolves to an internal address is refused outright.
  if (!opts.policy.hostAllowed(host) && addresses.some((a) => !opts.policy.addressAllowed(a.address))) {
    throw new InputError(ADDRESS_NOT_ALLOWED);
  }
  return addresses[0]!;
}

/** An undici dispatcher whose every connection goes to `pinned`, whatever the host name resolves to now. */
function pinnedAgent(pinned: LookupAddress, timeoutMs: number): Agent {
  type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;
  return new Agent({
    connections: 1,
    pipelining: 0,
    connect: {
      timeout: timeoutMs,
      lookup(_host: string, options: { all?: boolean }, cb: LookupCallback) {
        if (options?.all) cb(null, [pinned]);
        else cb(null, pinned.address, pinned.family);
      },
    } as never,
  });
}

function networkReason(err: unknown): string {
  const code =
    (err as { code?: string; cause?: { code?: string } })?.code ??
    (err as { cause?: { code?: string } })?.cause?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'the server refused the connection';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed by the server';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the server cannot be reached';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return 'the server did not answer in time';
    case 'UND_ERR_HEADERS_OVERFLOW':
      return 'the server sent headers that are too large';
    default:
      if (typeof code === 'string' && /CERT|SSL|TLS/i.test(code))
        return "the site's certificate is not valid";
      return 'the server could not be reached';
  }
}

/** The file name from Content-Disposition (RFC 6266/5987), else the URL's last path segment. */
export function nameFromResponse(url: URL, disposition: string | undefined): string {
  if (disposition) {
    // The library prefers a decodable RFC 8187 `filename*` and unescapes a quoted `filename`.
    const n = cleanFileName((parseDisposition(disposition).parameters.filename ?? '').trim());
    if (n) return n;
  }
  const segment = url.pathname.split('/').filter(Boolean).pop() ?? '';
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // keep it encoded
  }
  return cleanFileName(decoded) || bareHost(url.hostname);
}

/** A name whose extension says what the content is (processing checks names against content). */
function withExtension(name: string, contentType: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  const exts = contentType === HTML_TYPE ? ['html', 'htm'] : (ALLOWED_TYPES[contentType] ?? []);
  if (ext && exts.includes(ext)) return name;
  return `${name.slice(0, 250)}.${exts[0] ?? 'bin'}`;
}

/** Allowed upload types plus web pages; null when refused. */
function acceptedType(declared: string, name: string): string | null {
  const mime = declared.split(';')[0]!.trim().toLowerCase();
  if (mime === HTML_TYPE || mime === 'application/xhtml+xml') return HTML_TYPE;
  return resolveContentType(mime, name);
}

export async function fetchUrlIntoBlob(
  start: URL,
  blobs: BlobStore,
  blobKey: string,
  opts: FetchUrlOptions,
  /** The caller went away (its request was aborted): stop fetching and release what is held. */
  clientGone?: AbortSignal,
): Promise<FetchedFile> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = clientGone ? AbortSignal.any([timeout, clientGone]) : timeout;
  const tooSlow = () =>
    new InputError(couldNotFetch(`it took longer than ${Math.round(opts.timeoutMs / 1000)} seconds`));
  const agents: Agent[] = [];
  let stored = false;
  try {
    let url = start;
    for (let hop = 0; ; hop++) {
      const pinned = await Promise.race([
        checkedAddress(url, opts),
        new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(tooSlow()), { once: true }),
        ),
      ]);
      const agent = pinnedAgent(pinned, opts.timeoutMs);
      agents.push(agent);
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(url, {
          method: 'GET',
          dispatcher: agent,
          signal,
          headers: {
            'user-agent': 'Kaboodle/1 (+server-side fetch of a pasted URL)',
            accept:
              'text/html,application/xhtml+xml,application/pdf,image/png,image/jpeg,text/plain,*/*;q=0.5',
          },
          headersTimeout: opts.timeoutMs,
          bodyTimeout: opts.timeoutMs,
        });
      } catch (err) {
        if (clientGone?.aborted) throw clientGone.reason;
        if (signal.aborted) throw tooSlow();
        throw new InputError(couldNotFetch(networkReason(err)), { cause: err });
      }
      // Destroying an unread body emits 'error' (aborted): without a listener that would crash the process.
      res.body.on('error', () => undefined);
      const header = (name: string): string | undefined => {
        const v = res.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      if (REDIRECTS.has(res.statusCode)) {
        await res.body.dump().catch(() => undefined);
        const location = header('location');
        if (!location)
          throw new InputError(couldNotFetch(`the server answered ${res.statusCode} without a new address`));
        if (hop >= opts.maxRedirects) throw new InputError(couldNotFetch('too many redirects'));
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new InputError(couldNotFetch('the server redirected to an invalid address'));
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new InputError(
            couldNotFetch('the server redirected to an address that is not http or https'),
          );
        }
        url = next;
        continue;
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        await res.body.dump().catch(() => undefined);
        throw new InputError(couldNotFetch(`the server answered ${res.statusCode}`));
      }

      const declaredLength = Number(header('content-length'));
      const knownLength = Number.isFinite(declaredLength) && declaredLength >= 0 ? declaredLength : undefined;
      if (knownLength !== undefined && knownLength > MAX_FILE_BYTES) {
        res.body.destroy();
        throw new TooLargeError(sizeExceededMessage(knownLength));
      }
      const declaredType = header('content-type') ?? '';
      const rawName = nameFromResponse(url, header('content-disposition'));
      const contentType = acceptedType(declaredType, rawName);
      if (!contentType) {
        res.body.destroy();
        const mime = declaredType.split(';')[0]!.trim();
        const ext = /\.([a-z0-9]+)$/i.exec(rawName)?.[1];
        throw new InputError(
          unsupportedTypeMessage(mime && mime !== 'application/octet-stream' ? mime : (ext ?? 'unknown')),
        );
      }
      const name = withExtension(rawName, contentType);
      const { size, sha256, head } = await streamIntoBlob(
        res.body,
        blobs,
        blobKey,
        contentType,
        knownLength,
        () => {
          stored = true;
        },
      ).catch((err: unknown) => {
        if (clientGone?.aborted) throw clientGone.reason;
        if (signal.aborted && !(err instanceof TooLargeError)) throw tooSlow();
        throw err;
      });
      if (size === 0) throw new InputError(couldNotFetch('the server sent an empty file'));
      return {
        name,
        size,
        contentType,
        sniffedType: sniffContentType(head, contentType),
        sha256,
        finalUrl: url.href,
      };
    }
  } catch (err) {
    if (stored) await blobs.delete(blobKey).catch(() => undefined);
    throw err;
  } finally {
    for (const a of agents) a.destroy().catch(() => undefined);
  }
}

/** Stream the body into the blob store, hashing and counting; stops reading at the limit. */
async function streamIntoBlob(
  body: Readable,
  blobs: BlobStore,
  blobKey: string,
  contentType: string,
  knownLength: number | undefined,
  onStoreStarted: () => void,
): Promise<{ size: number; sha256: string; head: Buffer }> {
  const hash = createHash('sha256');
  const headParts: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  let sourceError: Error | undefined;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > MAX_FILE_BYTES) {
        sourceError = new TooLargeError(sizeExceededMessage(knownLength ?? size));
        body.destroy();
        cb(sourceError);
        return;
      }
      if (headBytes < SNIFF_BYTES) {
        headParts.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
        headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
      }
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  // The store pipes the meter only after its own set-up, so a body failing first must not leave an
  // 'error' with no listener (that would end the process); the put reports it by rejecting.
  meter.on('error', () => undefined);
  body.on('error', (err: Error) => {
    sourceError ??= err;
    meter.destroy(err);
  });
  body.pipe(meter);
  onStoreStarted();
  try {
    await blobs.put(blobKey, meter, { contentType });
  } catch (err) {
    body.destroy();
    if (sourceError instanceof TooLargeError) throw sourceError;
    if (sourceError) throw new InputError(couldNotFetch(networkReason(sourceError)), { cause: sourceError });
    throw new UnavailableError(`storing a fetched URL: ${(err as Error)?.message}`, { cause: err });
  }
  if (sourceError)
    throw sourceError instanceof TooLargeError
      ? sourceError
      : new InputError(couldNotFetch(networkReason(sourceError)));
  return { size, sha256: hash.digest('hex'), head: Buffer.concat(headParts) };
}
