// The keys every Kaboodle process reads. Defaults make `kaboodle --target=all` run with no
// configuration: embedded engines unless an engine URL is set.
import path from 'node:path';
import { defineConfig, env } from './config.ts';
import type { ConfigOf } from './config.ts';
import { kafkaSecurityProblems } from '../adapters/kafka-security.ts';

/** host:port, as Kafka bootstrap servers are written. */
const hostPort = (item: string): string | undefined =>
  /^[A-Za-z0-9.-]+:\d{1,5}$/.test(item) || /^\[[0-9A-Fa-f:]+\]:\d{1,5}$/.test(item)
    ? undefined
    : 'must be host:port';

// Field objects are exported one by one so a module that also reads a platform key (e.g. DATABASE_URL)
// can reuse the same declaration; combineConfigs accepts a key twice only when it is the same field.
export const platformFields = {
  PORT: env.int({
    min: 0,
    max: 65535,
    default: 8080,
    description: 'HTTP port (API, web shell, /healthz, /readyz, /metrics); 0 picks a free port',
  }),
  HOST: env.string({ default: '0.0.0.0', description: 'Interface the HTTP and gRPC servers bind' }),
  KABOODLE_DATA_DIR: env.path({
    default: () => path.resolve('.data'),
    description:
      'Folder for embedded engines (PGlite, local blobs, search index); default .data under the working directory',
  }),
  LOG_LEVEL: env.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, {
    default: 'info',
    description: 'Minimum log level',
  }),
  NODE_ENV: env.enum(['development', 'production', 'test'] as const, {
    default: 'development',
    description: 'Runtime environment',
  }),
  API_RESPONSE_CHECK: env.enum(['off', 'log', 'strict'] as const, {
    default: 'off',
    description:
      'Check every JSON answer against the schema its operation declares: log a mismatch, or (strict, for tests) answer 500 instead',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: env.url({
    protocols: ['http', 'https'],
    description: 'OTLP/HTTP collector base URL (traces and metrics); unset: no export, /metrics still served',
  }),
  OTEL_SERVICE_NAME: env.string({ default: 'kaboodle', description: 'service.name on traces and metrics' }),
  GRPC_PORT: env.int({
    min: 0,
    max: 65535,
    default: 9090,
    description: 'gRPC port for service-to-service calls in split mode; 0 picks a free port',
  }),
  GRPC_MAX_CONNECTION_AGE: env.duration({
    default: '60s',
    description:
      'The gRPC server ends each client connection after about this long (0: never), so clients resolve the service name again and spread calls over pods added since',
  }),
  GRPC_TLS_CERT_FILE: env.path({
    description:
      'This service’s certificate (PEM) for mutual TLS on gRPC; its URI SAN spiffe://kaboodle/<target> is its identity. With GRPC_TLS_KEY_FILE and GRPC_TLS_CA_FILE every gRPC call is authenticated and authorised per method',
  }),
  GRPC_TLS_KEY_FILE: env.path({ description: 'Private key (PEM) of GRPC_TLS_CERT_FILE' }),
  GRPC_TLS_CA_FILE: env.path({
    description: 'CA certificate (PEM) that signs every Kaboodle service certificate',
  }),
  GRPC_INSECURE: env.bool({
    default: false,
    description:
      'Allow plaintext, unauthenticated gRPC between split services with NODE_ENV=production (only inside a mesh that does mTLS itself)',
  }),
  DATABASE_URL: env.url({
    protocols: ['postgres', 'postgresql'],
    secret: true,
    description: 'PostgreSQL URL; unset: embedded Postgres (PGlite) under KABOODLE_DATA_DIR',
  }),
  KAFKA_BROKERS: env.list({
    item: hostPort,
    description: 'Kafka bootstrap servers (host:port,...); unset: in-process bus',
  }),
  KAFKA_TLS: env.bool({ default: false, description: 'TLS to the Kafka brokers' }),
  KAFKA_TLS_CA_FILE: env.path({ description: 'CA certificate (PEM) of the Kafka brokers (turns TLS on)' }),
  KAFKA_TLS_CERT_FILE: env.path({ description: 'Client certificate (PEM) for Kafka mutual TLS' }),
  KAFKA_TLS_KEY_FILE: env.path({ description: 'Private key (PEM) of KAFKA_TLS_CERT_FILE' }),
  KAFKA_SASL_MECHANISM: env.enum(['plain', 'scram-sha-256', 'scram-sha-512', 'oauthbearer'] as const, {
    description: 'SASL authentication to Kafka; unset: none',
  }),
  KAFKA_SASL_USERNAME: env.string({ description: 'SASL user (plain, scram-sha-256, scram-sha-512)' }),
  KAFKA_SASL_PASSWORD: env.string({ secret: true, description: 'SASL password' }),
  KAFKA_SASL_OAUTHBEARER_TOKEN_URL: env.url({
    protocols: ['http', 'https'],
    description: 'OAuth 2 token endpoint for OAUTHBEARER (client-credentials grant)',
  }),
  KAFKA_SASL_OAUTHBEARER_CLIENT_ID: env.string({ description: 'OAuth client id for OAUTHBEARER' }),
  KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET: env.string({
    secret: true,
    description: 'OAuth client secret for OAUTHBEARER',
  }),
  KAFKA_SASL_OAUTHBEARER_SCOPE: env.string({ description: 'OAuth scope to ask for (optional)' }),
  KAFKA_IDEMPOTENT: env.enum(['auto', 'true', 'false'] as const, {
    default: 'auto',
    description:
      'Idempotent producer (no duplicates or reordering on retries): auto uses it when the brokers accept it',
  }),
  S3_ENDPOINT: env.url({
    protocols: ['http', 'https'],
    description: 'S3/MinIO endpoint URL; unset: local directory under KABOODLE_DATA_DIR',
  }),
  S3_ACCESS_KEY: env.string({ description: 'S3 access key (required with S3_ENDPOINT)' }),
  S3_SECRET_KEY: env.string({ secret: true, description: 'S3 secret key (required with S3_ENDPOINT)' }),
  S3_BUCKET: env.string({
    default: 'kaboodle',
    check: (v) =>
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v)
        ? undefined
        : `must be a valid bucket name (3-63 of a-z 0-9 . -), got ${JSON.stringify(v)}`,
    description: 'Bucket for uploaded files',
  }),
  S3_REGION: env.string({ description: 'S3 region (MinIO ignores it)' }),
};

export const platformConfig = defineConfig(platformFields, {
  validate(c) {
    const problems: string[] = [];
    if (c.S3_ENDPOINT !== undefined) {
      if (c.S3_ACCESS_KEY === undefined) problems.push('S3_ACCESS_KEY: is required when S3_ENDPOINT is set');
      if (c.S3_SECRET_KEY === undefined) problems.push('S3_SECRET_KEY: is required when S3_ENDPOINT is set');
    }
    problems.push(...kafkaSecurityProblems(c));
    const tls = [c.GRPC_TLS_CERT_FILE, c.GRPC_TLS_KEY_FILE, c.GRPC_TLS_CA_FILE];
    if (tls.some((f) => f !== undefined) && tls.some((f) => f === undefined))
      problems.push(
        'GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE, GRPC_TLS_CA_FILE: set all three for mutual TLS, or none',
      );
    if (c.PORT !== undefined && c.PORT !== 0 && c.GRPC_PORT === c.PORT)
      problems.push(`GRPC_PORT: must differ from PORT (both are ${c.PORT})`);
    return problems;
  },
});

export type PlatformConfig = ConfigOf<typeof platformFields>;
