// Slowloris: connections that send a request head a byte at a time and never finish it, held open
// for the whole campaign. The server must go on answering every case meanwhile (the cases are the
// proof), and may close them (its headers timeout) whenever it likes.
import net from 'node:net';
import type { HostPort } from './accounts.ts';

export interface SlowClients {
  /** Stop trickling, close what is still open; how many the server had closed by itself. */
  stop(): { opened: number; closedByServer: number };
}

export function holdSlowClients(at: HostPort, count: number, everyMs = 2000): SlowClients {
  const sockets: net.Socket[] = [];
  let closedByServer = 0;
  let stopping = false;
  for (let i = 0; i < count; i++) {
    const socket = net.connect(at.port, at.host);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (!stopping) closedByServer++;
    });
    socket.once('connect', () => socket.write(`GET /healthz HTTP/1.1\r\nHost: ${at.host}\r\nX-Slow-${i}: `));
    sockets.push(socket);
  }
  const timer = setInterval(() => {
    for (const s of sockets) if (!s.destroyed) s.write('a');
  }, everyMs);
  return {
    stop() {
      stopping = true;
      clearInterval(timer);
      for (const s of sockets) s.destroy();
      return { opened: count, closedByServer };
    },
  };
}
