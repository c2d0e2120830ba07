// Where the EventBus contract suite finds a Kafka: KAFKA_BROKERS (CI and `make engines-up` start
// librdkafka's mock broker, deploy/engines/kafka-mock), else a throwaway Kafka in a container when
// a Docker engine answers, else the suite skips Kafka and says why.
import { KafkaContainer } from '@testcontainers/kafka';
import { Kafka, logLevel } from 'kafkajs';
import type { EngineSpec } from './engines.ts';

export interface KafkaEngineConfig {
  brokers: string[];
}

// The Kafka image testcontainers' module knows best (KRaft needs ≥ 7.0; no ZooKeeper container).
const KAFKA_IMAGE = 'confluentinc/cp-kafka:7.5.0';

export const kafkaEngine: EngineSpec<KafkaEngineConfig> = {
  name: 'kafka',
  env: ['KAFKA_BROKERS'],
  fromEnv: (env) => {
    const brokers = (env.KAFKA_BROKERS ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    return brokers.length > 0 ? { brokers } : undefined;
  },
  container: async () => {
    // Auto-created topics get 4 partitions (Kafka's default is 1), as on the mock broker, so the
    // suite's sharing and concurrency cases have partitions to spread over.
    const c = await new KafkaContainer(KAFKA_IMAGE)
      .withKraft()
      .withEnvironment({ KAFKA_NUM_PARTITIONS: '4' })
      .start();
    const brokers = [`${c.getHost()}:${c.getMappedPort(9093)}`];
    return {
      config: { brokers },
      detail: `${KAFKA_IMAGE} at ${brokers[0]}`,
      stop: async () => void (await c.stop()),
    };
  },
};

/**
 * Creates topics with `partitions` partitions where the broker allows it (a real Kafka whose
 * auto-created topics may have a single partition). librdkafka's mock has no CreateTopics and
 * auto-creates with 4 partitions, so there the failure is expected and ignored.
 */
export async function createTopicsIfSupported(
  brokers: string[],
  topics: string[],
  partitions: number,
): Promise<void> {
  const kafka = new Kafka({ clientId: 'kaboodle-contract-admin', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin({ retry: { retries: 0 } });
  try {
    await admin.connect();
    await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: partitions })) });
  } catch {
    // not supported (mock broker) or already there: auto-creation covers both
  } finally {
    await admin.disconnect().catch(() => {});
  }
}
