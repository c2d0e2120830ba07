// A tiny DNS server for tests, standing in for kube-dns answering a headless Service: A queries for
// the names it holds get every address currently listed (TTL 0), anything else an empty answer.
// Real DNS on the wire (UDP, RFC 1035 messages), so grpc-js resolves through its own DNS resolver
// (GRPC_NODE_USE_ALTERNATIVE_RESOLVER=true and a `dns://<this server>/<name>:<port>` target).
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

export interface DnsStandIn {
  /** `127.0.0.1:<port>`: the authority of a `dns://` gRPC target. */
  readonly address: string;
  /** Replace the addresses a name resolves to (what a headless Service does as pods come and go). */
  set(name: string, ipv4: string[]): void;
  /** How many A queries it answered for a name (the client re-resolved). */
  queries(name: string): number;
  close(): Promise<void>;
}

const TYPE_A = 1;
const CLASS_IN = 1;

/** The queried name and where the question ends, read from a DNS message. */
function readQuestion(msg: Buffer): { name: string; end: number; type: number } {
  const labels: string[] = [];
  let at = 12;
  while (msg[at] !== 0) {
    const length = msg[at]!;
    labels.push(msg.subarray(at + 1, at + 1 + length).toString('ascii'));
    at += length + 1;
  }
  at += 1;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at), end: at + 4 };
}

export async function startDnsStandIn(): Promise<DnsStandIn> {
  const records = new Map<string, string[]>();
  const counts = new Map<string, number>();
  const socket = createSocket('udp4');
  socket.on('message', (msg, peer) => {
    if (msg.length < 12) return;
    const { name, type, end } = readQuestion(msg);
    const ips = type === TYPE_A ? (records.get(name) ?? []) : [];
    if (type === TYPE_A) counts.set(name, (counts.get(name) ?? 0) + 1);
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2); // same id
    header.writeUInt16BE(0x8180, 2); // response, recursion desired + available, NOERROR
    header.writeUInt16BE(1, 4); // one question
    header.writeUInt16BE(ips.length, 6);
    const answers = ips.map((ip) => {
      const rr = Buffer.alloc(16);
      rr.writeUInt16BE(0xc00c, 0); // name: pointer to the question's
      rr.writeUInt16BE(TYPE_A, 2);
      rr.writeUInt16BE(CLASS_IN, 4);
      rr.writeUInt32BE(0, 6); // TTL 0: never cached
      rr.writeUInt16BE(4, 10);
      ip.split('.').forEach((octet, i) => rr.writeUInt8(Number(octet), 12 + i));
      return rr;
    });
    socket.send(Buffer.concat([header, msg.subarray(12, end), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    set: (name, ipv4) => void records.set(name.toLowerCase(), [...ipv4]),
    queries: (name) => counts.get(name.toLowerCase()) ?? 0,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
