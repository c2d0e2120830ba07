// Engines that do not answer at start are configuration problems: every engine is pinged once, in
// parallel and bounded, and each silent one becomes one line naming its key (secrets redacted).
import { ConfigError } from '@kaboodle/platform';
import type { BlobStore, Database, EventBus } from '@kaboodle/platform';
import type { KaboodleConfig } from './kaboodle-config.ts';

export class EngineUnavailableError extends ConfigError {}

const ENGINE_TIMEOUT_MS = 15_000;

export interface Engines {
  config: KaboodleConfig;
  databases: readonly Database[];
  bus?: EventBus | undefined;
  blobs?: BlobStore | undefined;
}

export async function checkEngines({ config: c, databases, bus, blobs }: Engines): Promise<void> {
  const probes: { key: string; where: string; ping: () => Promise<void> }[] = [];
  const redactUrl = (u: string) => u.replace(/\/\/[^@/]*@/, '//***@');
  if (databases.length > 0) {
    probes.push({
      key: c.DATABASE_URL ? 'DATABASE_URL' : 'KABOODLE_DATA_DIR',
      where: c.DATABASE_URL ? redactUrl(c.DATABASE_URL) : `embedded Postgres under ${c.KABOODLE_DATA_DIR}`,
      ping: () => databases[0]!.ping(),
    });
  }
  if (bus?.kind === 'kafka') {
    probes.push({ key: 'KAFKA_BROKERS', where: c.KAFKA_BROKERS!.join(','), ping: () => bus.ping() });
  }
  if (blobs) {
    probes.push({
      key: c.S3_ENDPOINT ? 'S3_ENDPOINT' : 'KABOODLE_DATA_DIR',
      where: c.S3_ENDPOINT ?? `blob folder under ${c.KABOODLE_DATA_DIR}`,
      ping: () => blobs.ping(),
    });
  }
  const results = await Promise.all(
    probes.map(async (p) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          p.ping(),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer in ${ENGINE_TIMEOUT_MS / 1000} s`)),
              ENGINE_TIMEOUT_MS,
            );
          }),
        ]);
        return undefined;
      } catch (err) {
        return `${p.key}: ${p.where} does not answer: ${err instanceof Error ? err.message : String(err)}`;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const problems = results.filter((r): r is string => r !== undefined);
  if (problems.length > 0) throw new EngineUnavailableError(problems);
}
