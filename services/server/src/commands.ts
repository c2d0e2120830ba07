// Operator commands, run with the same image and environment as the services (a Job, or
// `kubectl exec`): dead letters (list, replay), the event topics (check, create) and the search
// index's reindex. Each prints what it did and exits non-zero when it could not.
import { parseArgs } from 'node:util';
import { combineConfigs, ConfigError, createLogger, platformConfig } from '@kaboodle/platform';
import { kafkaSecurity } from '@kaboodle/platform';
import { searchConfig } from '@kaboodle/search/config';
import { serverConfig } from './server-config.ts';
import { dlqList, dlqReplay, topicsCheck, topicsCreate } from './kafka-commands.ts';

const commandConfig = combineConfigs(platformConfig, serverConfig, searchConfig);

export async function runCommand(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  const parsed = commandConfig.safeParse(process.env);
  if (!parsed.ok) {
    for (const p of parsed.problems) console.error(`kaboodle: ${p}`);
    return 2;
  }
  const config = parsed.config;
  let options;
  try {
    options = parseArgs({
      args: rest,
      options: {
        topic: { type: 'string' },
        limit: { type: 'string' },
        partitions: { type: 'string', default: '48' },
        replicas: { type: 'string', default: '-1' },
        'if-needed': { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (err) {
    console.error(`kaboodle: ${(err as Error).message}`);
    return 2;
  }
  const limit = options.limit === undefined ? Infinity : Number(options.limit);
  if (!(limit > 0)) {
    console.error('kaboodle: --limit must be a positive number');
    return 2;
  }
  const logger = createLogger({
    level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL,
    component: 'kaboodle-cli',
  });

  if (command === 'search') {
    if (sub !== 'reindex') return usage(`unknown search command "${sub ?? ''}" (reindex)`);
    const { reindexCommand } = await import('./search-commands.ts');
    return reindexCommand(config, { ifNeeded: options['if-needed'], logger, print: console.log });
  }
  if (!config.KAFKA_BROKERS) {
    console.error(
      `kaboodle: KAFKA_BROKERS: is required for \`kaboodle ${command}\` (dead letters and topics live in Kafka)`,
    );
    return 2;
  }
  const kafka = {
    brokers: config.KAFKA_BROKERS,
    logger,
    ...kafkaSecurity(config),
  };
  try {
    if (command === 'dlq' && sub === 'list')
      return await dlqList(kafka, {
        ...(options.topic && { topic: options.topic }),
        limit,
        print: console.log,
      });
    if (command === 'dlq' && sub === 'replay') {
      if (!options.topic) return usage('dlq replay needs --topic <topic> (the original topic, or its .dlq)');
      return await dlqReplay(kafka, { topic: options.topic, limit, print: console.log });
    }
    if (command === 'topics' && sub === 'check') return await topicsCheck(kafka, { print: console.log });
    if (command === 'topics' && sub === 'create')
      return await topicsCreate(kafka, {
        partitions: Number(options.partitions),
        replicas: Number(options.replicas),
        print: console.log,
      });
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const p of err.problems) console.error(`kaboodle: ${p}`);
      return 2;
    }
    console.error(`kaboodle: ${command} ${sub ?? ''}: ${(err as Error).message}`);
    return 1;
  }
  return usage(`unknown command "${[command, sub].filter(Boolean).join(' ')}"`);
}

function usage(problem: string): number {
  console.error(`kaboodle: ${problem}; see kaboodle --help`);
  return 2;
}
