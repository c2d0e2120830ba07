// HTTP/1.1 over raw sockets, so a case can send exactly the bytes it means: duplicate and flooded
// headers, lying Content-Lengths, bodies that stop, trickle or break the framing. Every exchange is
// `Connection: close`: the answer is whatever arrives before the server closes (or nothing).
import net from 'node:net';

export interface WireRequest {
  method: string;
  /** Request target, sent as is (already encoded, or deliberately not). */
  path: string;
  /** In order, duplicates allowed; Host and Connection are added unless present. */
  headers: Array<[string, string]>;
  body?: Buffer;
  /** How the body goes out: all at once (default), in slow pieces, or cut off. */
  delivery?:
    | { kind: 'whole' }
    | { kind: 'slow'; pieces: number; gapMs: number }
    | { kind: 'cut'; after: number; then: 'end' | 'destroy' };
  /** Send the head itself byte by byte this slowly (slow headers). */
  slowHeadMs?: number;
  /** Give up waiting for an answer after this long (a hang). */
  timeoutMs?: number;
  /** Send these bytes instead of a head and body built from the fields above (not HTTP at all, HTTP/1.0, pipelining). */
  raw?: Buffer;
  /** Bind the client side to this loopback address (the fuzzer's own housekeeping calls). */
  localAddress?: string;
}

export interface WireResponse {
  /** 0 when nothing parseable came back. */
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The server closed or reset the connection without answering. */
  dropped: boolean;
  /** No answer and no close within timeoutMs. */
  timedOut: boolean;
  ms: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function head(req: WireRequest, host: string): string {
  const names = new Set(req.headers.map(([n]) => n.toLowerCase()));
  const lines = [`${req.method} ${req.path} HTTP/1.1`];
  if (!names.has('host')) lines.push(`Host: ${host}`);
  for (const [n, v] of req.headers) lines.push(`${n}: ${v}`);
  if (!names.has('connection')) lines.push('Connection: close');
  if (req.body && !names.has('content-length') && !names.has('transfer-encoding'))
    lines.push(`Content-Length: ${req.body.length}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = Number.parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

export function parseResponse(whole: Buffer): Pick<WireResponse, 'status' | 'headers' | 'body'> {
  let raw = whole;
  // Interim answers (100 Continue) come before the real one.
  while (/^HTTP\/1\.[01] 1\d\d /.test(raw.subarray(0, 16).toString('latin1'))) {
    const next = raw.indexOf('\r\n\r\n');
    if (next < 0) break;
    raw = raw.subarray(next + 4);
  }
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: raw };
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    // Set-Cookie may not be folded with commas (dates contain them): one per line.
    headers[name] =
      headers[name] === undefined ? value : `${headers[name]}${name === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  // Pipelined answers follow each other: the first one ends where its Content-Length says.
  else if (headers['content-length'] !== undefined)
    body = body.subarray(0, Number(headers['content-length']));
  return { status, headers, body };
}

/** One request on its own connection; resolves (never rejects) with what came back. */
export function exchange(hostPort: { host: string; port: number }, req: WireRequest): Promise<WireResponse> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let finished = false;
    const socket = net.connect({
      host: hostPort.host,
      port: hostPort.port,
      ...(req.localAddress ? { localAddress: req.localAddress } : {}),
    });
    const finish = (timedOut: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks);
      const parsed = parseResponse(raw);
      resolve({
        ...parsed,
        dropped: parsed.status === 0 && !timedOut,
        timedOut,
        ms: performance.now() - started,
      });
    };
    const timer = setTimeout(() => finish(true), req.timeoutMs ?? 30_000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    // A reset after (or instead of) the answer: whatever arrived is the answer.
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(false));
    socket.once('connect', () => {
      void (async () => {
        const text = head(req, `${hostPort.host}:${hostPort.port}`);
        try {
          if (req.raw) {
            socket.write(req.raw);
            return;
          }
          if (req.slowHeadMs) {
            for (const ch of text) {
              if (finished) return;
              socket.write(ch);
              await sleep(req.slowHeadMs);
            }
          } else socket.write(text);
          const body = req.body ?? Buffer.alloc(0);
          const delivery = req.delivery ?? { kind: 'whole' };
          if (delivery.kind === 'whole') {
            if (body.length) socket.write(body);
          } else if (delivery.kind === 'slow') {
            const size = Math.max(1, Math.ceil(body.length / delivery.pieces));
            for (let at = 0; at < body.length && !finished; at += size) {
              socket.write(body.subarray(at, at + size));
              await sleep(delivery.gapMs);
            }
          } else {
            socket.write(body.subarray(0, delivery.after));
            await sleep(20);
            if (delivery.then === 'destroy') {
              socket.destroy();
              return;
            }
            socket.end();
          }
        } catch {
          // the server closed first (e.g. a 413 before the body): its answer is what counts
        }
      })();
    });
  });
}
