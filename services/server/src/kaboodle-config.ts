// The entrypoint's whole configuration (every module's schema, parsed once) and the cross-key rules
// that depend on which targets share the process; both report every problem at once.
import { ConfigError, combineConfigs, platformConfig } from '@kaboodle/platform';
// Config schemas only: each service's code is imported when its module is built, so a target loads
// only what it runs (the web target never loads the AI models' native libraries).
import { authConfigSchema } from '@kaboodle/auth/config';
import { ingestionConfig } from '@kaboodle/ingestion/config';
import { processingModuleConfig } from '@kaboodle/processing/config';
import { catalogueConfig } from '@kaboodle/catalogue/config';
import { searchConfig } from '@kaboodle/search/config';
import { serverConfig } from './server-config.ts';

export const SERVICES = ['auth', 'ingestion', 'processing', 'catalogue', 'search'] as const;
/** Services that own a database. */
export const DB_SERVICES = ['auth', 'ingestion', 'catalogue'] as const;
/** Services that publish or consume events: split across processes, they need a shared broker. */
const EVENT_SERVICES = new Set(['auth', 'ingestion', 'processing', 'catalogue', 'search']);

const configSchema = combineConfigs(
  combineConfigs(platformConfig, serverConfig),
  combineConfigs(authConfigSchema, processingModuleConfig),
  combineConfigs(ingestionConfig, catalogueConfig, searchConfig),
);
export type KaboodleConfig = ReturnType<typeof configSchema.parse>;

/**
 * Cross-key rules that depend on which targets share this process. They read the raw environment so
 * they are reported together with every other problem, even when some keys failed to parse.
 */
function targetProblems(
  env: Readonly<Record<string, string | undefined>>,
  running: ReadonlySet<string>,
): string[] {
  const has = (key: string) => (env[key]?.trim() ?? '') !== '';
  const problems: string[] = [];
  const services = SERVICES.filter((s) => running.has(s));
  const eventServices = services.filter((s) => EVENT_SERVICES.has(s));
  const allInProcess = SERVICES.every((s) => running.has(s));
  if (!has('KAFKA_BROKERS') && eventServices.length > 0 && !allInProcess) {
    problems.push(
      `KAFKA_BROKERS: is required when --target runs ${eventServices.join(', ')} without every other service in the same process (events must reach the other processes)`,
    );
  }
  if (!running.has('auth') && services.some((s) => s !== 'processing') && !has('AUTH_URL')) {
    problems.push(
      'AUTH_URL: is required when --target does not include auth (tokens are verified with its published keys)',
    );
  }
  if (running.has('auth') && env.NODE_ENV?.trim().toLowerCase() === 'production' && !has('AUTH_KEY_SECRET')) {
    problems.push(
      'AUTH_KEY_SECRET: is required when NODE_ENV=production (it seals the token-signing keys at rest; at least 16 random characters)',
    );
  }
  // Split services talk gRPC: in production that must be mutual TLS (or a mesh's, said explicitly).
  const split = !allInProcess && services.length > 0;
  if (
    split &&
    env.NODE_ENV === 'production' &&
    !has('GRPC_TLS_CERT_FILE') &&
    !['true', '1', 'yes'].includes((env.GRPC_INSECURE ?? '').trim().toLowerCase())
  ) {
    problems.push(
      'GRPC_TLS_CERT_FILE: is required with NODE_ENV=production when services run in separate processes (mutual TLS between them; GRPC_INSECURE=true only inside a mesh that does mTLS)',
    );
  }
  if (running.has('search') && !running.has('processing') && !has('PROCESSING_GRPC_ADDRESS')) {
    problems.push(
      'PROCESSING_GRPC_ADDRESS: is required when --target includes search but not processing (query embeddings)',
    );
  }
  return problems;
}

/** The whole configuration for these modules; ConfigError listing every problem. */
export function parseKaboodleConfig(
  source: Readonly<Record<string, string | undefined>>,
  running: ReadonlySet<string>,
): KaboodleConfig {
  const parsed = configSchema.safeParse(source);
  const problems = [...(parsed.ok ? [] : parsed.problems), ...targetProblems(source, running)];
  if (!parsed.ok || problems.length > 0) throw new ConfigError(problems);
  return parsed.config;
}
