// The entrypoint's own keys, on top of the platform's; combined with every module's schema so one
// parse lists every configuration problem at once.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, env } from '@kaboodle/platform';
import type { ConfigOf } from '@kaboodle/platform';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const serverFields = {
  FRONTENDS_DIR: env.path({
    default: () => path.join(repoRoot, 'frontends'),
    description: 'Folder holding frontends/<app>/dist, served by the web target',
  }),
  AUTH_URL: env.url({
    protocols: ['http', 'https'],
    description: 'Base URL of the auth service (split mode): other services fetch /api/auth/jwks from it',
  }),
  PROCESSING_GRPC_ADDRESS: env.string({
    check: (v) =>
      /^[A-Za-z0-9.-]+:\d{1,5}$/.test(v) ? undefined : `must be host:port, got ${JSON.stringify(v)}`,
    description: 'host:port of the processing service gRPC server (split mode)',
  }),
  SHUTDOWN_TIMEOUT: env.duration({ default: '15s', description: 'How long a graceful stop may take' }),
};

export const serverConfig = defineConfig(serverFields);
export type ServerConfig = ConfigOf<typeof serverFields>;
