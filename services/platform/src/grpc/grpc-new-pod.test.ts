// A processing pod the autoscaler adds receives calls: two real gRPC servers on one port of two
// loopback addresses (127.0.0.1 and 127.0.0.2, like two pod IPs), a client dialling a name that a DNS
// stand-in resolves like a headless Service, and the second address added to the name while calls
// keep flowing. With max_connection_age the servers end their connections, the client resolves the
// name again and the new server gets a share; without it the client never looks again (the control).
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessingService } from '@kaboodle/proto';
import { createLogger } from '../log/index.ts';
import type { GrpcServer } from './index.ts';
import { startDnsStandIn } from './testing/dns-stand-in.ts';
import type { DnsStandIn } from './testing/dns-stand-in.ts';

// grpc-js reads this when it loads (hence the import after it): resolve with node's DNS client, which
// a `dns://server/name` target points at a server, instead of the system's getaddrinfo.
process.env.GRPC_NODE_USE_ALTERNATIVE_RESOLVER = 'true';
const { createGrpcClient, createGrpcServer, implementGrpcService } = await import('./index.ts');

const logger = createLogger({ component: 'grpc-new-pod-test', level: 'silent' });
const NAME = 'kaboodle-processing-grpc.test';

function processingPod(pod: string, served: Map<string, number>) {
  return implementGrpcService(ProcessingService, {
    async embed(request) {
      served.set(pod, (served.get(pod) ?? 0) + 1);
      return {
        vectors: request.texts.map(() => ({ values: [1] })),
        provider: pod,
        model: 'm',
        dimensions: 1,
      };
    },
    async analyze() {
      throw new Error('not used');
    },
  });
}

/** A free port on both loopback addresses (the two "pods" listen on the same port, as pods do). */
async function portFreeOnBoth(): Promise<number> {
  for (;;) {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    const second = createServer();
    const ok = await new Promise<boolean>((resolve) => {
      second.once('error', () => resolve(false));
      second.listen(port, '127.0.0.2', () => resolve(true));
    });
    if (ok) {
      await new Promise((r) => second.close(r));
      return port;
    }
  }
}

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => undefined);
  cleanup = [];
});

async function scenario(
  maxConnectionAgeMs: number,
): Promise<{ served: Map<string, number>; dns: DnsStandIn }> {
  const served = new Map<string, number>();
  const dns = await startDnsStandIn();
  cleanup.push(() => dns.close());
  const port = await portFreeOnBoth();
  const start = async (pod: string, host: string): Promise<GrpcServer> => {
    const server = createGrpcServer({ logger, host, port, maxConnectionAgeMs, maxConnectionAgeGraceMs: 500 });
    server.addService(processingPod(pod, served));
    await server.start();
    cleanup.push(() => server.stop({ timeoutMs: 500 }));
    return server;
  };

  await start('old-pod', '127.0.0.1');
  dns.set(NAME, ['127.0.0.1']);
  const client = createGrpcClient(ProcessingService, `dns://${dns.address}/${NAME}:${port}`, {
    logger,
    channelOptions: { 'grpc.dns_min_time_between_resolutions_ms': 100 },
  });
  cleanup.push(async () => client.close());
  const call = () => client.embed({ texts: ['x'] });
  for (let i = 0; i < 20; i++) await call();
  expect(served.get('old-pod')).toBe(20);

  // The autoscaler adds a pod: it starts, and the headless Service's name lists it.
  await start('new-pod', '127.0.0.2');
  dns.set(NAME, ['127.0.0.1', '127.0.0.2']);
  const until = Date.now() + 4_000;
  while (Date.now() < until && (served.get('new-pod') ?? 0) < 20) {
    await call();
    await new Promise((r) => setTimeout(r, 10));
  }
  return { served, dns };
}

describe('gRPC: a newly started processing pod receives calls', () => {
  it('spreads calls to the new pod once the servers age out connections (max_connection_age)', async () => {
    const { served, dns } = await scenario(500);
    console.log(
      `[grpc-new-pod] with max_connection_age 500 ms: old pod ${served.get('old-pod')} calls, new pod ${served.get('new-pod') ?? 0} calls, ${dns.queries(NAME)} DNS lookups`,
    );
    expect(served.get('new-pod') ?? 0).toBeGreaterThanOrEqual(20);
    expect(dns.queries(NAME)).toBeGreaterThan(1);
  });

  it('control: without max_connection_age the client never looks the name up again, and the new pod idles', async () => {
    const { served, dns } = await scenario(0);
    console.log(
      `[grpc-new-pod] without max_connection_age: old pod ${served.get('old-pod')} calls, new pod ${served.get('new-pod') ?? 0} calls, ${dns.queries(NAME)} DNS lookups`,
    );
    expect(served.get('new-pod') ?? 0).toBe(0);
  });
});
