// The ingestion service's env keys (URL fetching, stale-claim sweep), parsed with every other
// module's keys so one start lists every problem. Defaults run as is.
import { defineConfig, env } from '@kaboodle/platform';

export const ingestionConfig = defineConfig({
  URL_FETCH_ALLOW_HOSTS: env.list({
    default: [],
    description:
      'Hosts (or CIDR ranges) a pasted URL may reach even though they are private, loopback or link-local (operators only)',
  }),
  URL_FETCH_TIMEOUT: env.duration({
    min: 1_000,
    default: '30s',
    description: 'Time limit for fetching a pasted URL, headers and body together',
  }),
  URL_FETCH_MAX_REDIRECTS: env.int({
    min: 0,
    max: 10,
    default: 3,
    description: 'Redirects followed when fetching a pasted URL (each hop is checked again)',
  }),
  STALE_FILE_AFTER: env.duration({
    min: 10_000,
    default: '10m',
    description:
      'A file queued or processing with no status for this long is handed to processing again (or failed after the last attempt)',
  }),
});
export type IngestionConfig = ReturnType<typeof ingestionConfig.parse>;
