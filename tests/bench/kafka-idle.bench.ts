// The CPU an idle Kafka client costs its process, kafkajs as shipped against kafkajs with Kaboodle's
// fix (services/platform/src/adapters/kafkajs-idle-timers.ts: 2.2.4 runs a 1 ms timer loop on every
// broker connection). Each run starts librdkafka's mock cluster (three brokers, as CI runs it) and
// two child processes, one of each kind, in alternating order: each connects a producer and a
// consumer group, sends one event and receives it, then measures its own CPU over IDLE_S seconds of
// idleness. Medians of BENCH_RUNS (3). Needs deploy/engines/kafka-mock (built here when missing).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const IDLE_S = Number(process.env.IDLE_S ?? 10);
const runs = Number(process.env.BENCH_RUNS ?? 3);
type Kind = 'shipped' | 'fixed';

async function child(kind: Kind, brokers: string): Promise<void> {
  if (kind === 'fixed') {
    const { kafkajsIdleTimersFixed } = await import('@kaboodle/platform');
    if (!kafkajsIdleTimersFixed()) throw new Error('the fix is not in place');
  }
  const { Kafka, logLevel } = await import('kafkajs');
  const kafka = new Kafka({
    clientId: `idle-${kind}`,
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer({ allowAutoTopicCreation: true });
  const consumer = kafka.consumer({ groupId: `idle-${kind}`, heartbeatInterval: 1000 });
  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topic: 'idle.bench', fromBeginning: true });
  let got!: () => void;
  const received = new Promise<void>((r) => (got = r));
  await consumer.run({ eachMessage: async () => got() });
  await producer.send({ topic: 'idle.bench', messages: [{ key: 'k', value: 'one' }] });
  await received;
  const before = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, IDLE_S * 1000));
  const used = process.cpuUsage(before);
  const share = (used.user + used.system) / 1000 / (performance.now() - t0);
  console.log(JSON.stringify({ kind, cpuPercent: share * 100 }));
  await consumer.disconnect();
  await producer.disconnect();
}

function runChild(kind: Kind, brokers: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), 'child', kind, brokers], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) reject(new Error(`${kind} child exited ${code}: ${out}`));
      else resolve((JSON.parse(line) as { cpuPercent: number }).cpuPercent);
    });
  });
}

if (process.argv[2] === 'child') {
  await child(process.argv[3] as Kind, process.argv[4]!);
} else {
  const mockBinary = fileURLToPath(new URL('../../deploy/engines/kafka-mock/kafka-mock', import.meta.url));
  if (!existsSync(mockBinary)) {
    const build = fileURLToPath(new URL('../../deploy/engines/kafka-mock/build.sh', import.meta.url));
    const built = spawnSync('bash', [build], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('kafka-mock could not be built');
  }
  const results: Record<Kind, number[]> = { shipped: [], fixed: [] };
  for (let i = 0; i < runs; i++) {
    const mock = spawn(mockBinary, ['--brokers', '3'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const brokers = await new Promise<string>((resolve) =>
        mock.stdout.once('data', (d) => resolve(String(d).trim())),
      );
      for (const kind of i % 2 === 0 ? (['shipped', 'fixed'] as const) : (['fixed', 'shipped'] as const))
        results[kind].push(await runChild(kind, brokers));
    } finally {
      mock.kill('SIGKILL');
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`runs: ${runs}, ${IDLE_S} s idle each; CPU of one core`);
  for (const kind of ['shipped', 'fixed'] as const)
    console.log(
      `kafkajs ${kind === 'shipped' ? 'as shipped (2.2.4)   ' : 'with the idle-timer fix'}: median ${median(results[kind]).toFixed(2)} %  [${results[kind].map((x) => x.toFixed(2)).join(', ')}]`,
    );
}
