// Start an HTTP server for an app and stop it gracefully: stop accepting, let in-flight requests
// finish, close idle keep-alive sockets as they free up, and cut whatever is left at a deadline.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestListener } from 'node:http';

// Apps whose server is draining: /readyz reads this to answer 503 while shutdown is under way.
const draining = new WeakSet<object>();

const delay = (ms: number): Promise<void> =>
  ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();

export function isDraining(app: object): boolean {
  return draining.has(app);
}

export interface RunningServer {
  readonly server: http.Server;
  /** The bound port (the real one when 0 was asked for). */
  readonly port: number;
  /** A URL to reach it, with localhost for wildcard hosts. */
  readonly url: string;
  /**
   * Graceful stop; resolves when every connection is closed: /readyz turns 503, then after the drain
   * delay the server stops accepting, in-flight requests finish, idle keep-alive sockets close, and
   * connections still busy at the deadline (default 10 s, counted after the drain delay) are
   * destroyed. Safe to call more than once.
   */
  close(deadlineMs?: number): Promise<void>;
}

export interface ListenOptions {
  /** Default deadline for close() (default 10 000 ms). */
  shutdownDeadlineMs?: number;
  /**
   * How long close() keeps accepting requests while /readyz already answers 503 (default 0), so a
   * load balancer or Kubernetes endpoints controller stops routing here before connections are refused.
   */
  drainDelayMs?: number;
  /**
   * How long an idle keep-alive connection stays open (default 65 s). Longer than the usual proxy
   * idle timeouts (60 s), so a proxy never reuses a connection the server is closing (a 502).
   */
  keepAliveTimeoutMs?: number;
}

/** What a request Node's HTTP parser refused is told (its own answer has no body at all). */
function parserRefusal(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request headers are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request took too long to arrive' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'The request body is too large' };
    default:
      return { status: 400, message: 'The request is not valid HTTP/1.1' };
  }
}

/**
 * Answers what the HTTP parser refuses (malformed framing, header floods, slow heads) with the JSON
 * error body every other refusal has, instead of Node's bare status line. As Node's own handler does,
 * only while no answer to that request has begun; a connection already reset is just closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inProgress?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, message } = parserRefusal(err.code);
  const body = JSON.stringify({ error: message, message, code: 'InputError' });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function listen(
  app: RequestListener,
  port: number,
  host = '0.0.0.0',
  options: ListenOptions = {},
): Promise<RunningServer> {
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`listen: port must be an integer between 0 and 65535, got ${String(port)}`);
  }
  const server = http.createServer(app);
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 65_000;
  // Node requires headersTimeout to exceed keepAliveTimeout, or it cuts kept-alive requests early.
  server.headersTimeout = Math.max(server.headersTimeout, server.keepAliveTimeout + 1000);
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      const why = err.code === 'EADDRINUSE' ? 'address already in use' : err.message;
      reject(new Error(`listening on ${host}:${port}: ${why}`, { cause: err }));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const shownHost =
    host === '0.0.0.0' || host === '::' || host === ''
      ? 'localhost'
      : host.includes(':')
        ? `[${host}]`
        : host;

  let closing: Promise<void> | undefined;
  const close = (deadlineMs = options.shutdownDeadlineMs ?? 10_000): Promise<void> => {
    draining.add(app);
    closing ??= delay(options.drainDelayMs ?? 0).then(() => stop(deadlineMs));
    return closing;
  };
  const stop = (deadlineMs: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      // server.close() drops the sockets idle right now; keep-alive sockets that finish a request
      // later must be dropped as they go idle, or close() would wait for their idle timeout.
      const poll = setInterval(() => server.closeIdleConnections(), 25);
      const deadline = setTimeout(() => {
        clearInterval(poll);
        server.closeAllConnections();
      }, deadlineMs);
      server.close((err) => {
        clearTimeout(deadline);
        clearInterval(poll);
        if (err) reject(new Error(`closing the HTTP server: ${err.message}`, { cause: err }));
        else resolve();
      });
      server.closeIdleConnections();
    });

  return { server, port: bound, url: `http://${shownHost}:${bound}`, close };
}
