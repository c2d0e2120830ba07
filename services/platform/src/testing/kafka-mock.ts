// librdkafka's mock cluster (deploy/engines/kafka-mock, built by its build.sh; CI's engines-up does
// it) as a private broker for one test: started with the given arguments, its bootstrap address read
// from the first line it prints. Tests that need it skip, saying why, where it is not built.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export const KAFKA_MOCK_BINARY = new URL('../../../../deploy/engines/kafka-mock/kafka-mock', import.meta.url)
  .pathname;

export const kafkaMockBuilt = (): boolean => existsSync(KAFKA_MOCK_BINARY);

/** A running mock cluster and its bootstrap address (`host:port[,host:port…]`). */
export async function startKafkaMock(args: string[]): Promise<{ broker: ChildProcess; brokers: string }> {
  const broker = spawn(KAFKA_MOCK_BINARY, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const brokers = await new Promise<string>((resolve, reject) => {
    broker.once('error', reject);
    broker.once('exit', (code) => reject(new Error(`kafka-mock exited with ${code} before it listened`)));
    broker.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim().split('\n')[0]!));
  });
  return { broker, brokers };
}
