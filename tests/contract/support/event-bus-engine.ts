// Where the EventBus contract suite finds a Kafka: KAFKA_BROKERS (CI and `make engines-up` start
// librdkafka's mock broker, deploy/engines/kafka-mock), else a throwaway Kafka in a container when
// a Docker engine answers, else the suite skips Kafka and says why.
import { KafkaContainer } from '@testcontainers/kafka';
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
    const c = await new KafkaContainer(KAFKA_IMAGE).withKraft().start();
    const brokers = [`${c.getHost()}:${c.getMappedPort(9093)}`];
    return {
      config: { brokers },
      detail: `${KAFKA_IMAGE} at ${brokers[0]}`,
      stop: async () => void (await c.stop()),
    };
  },
};
