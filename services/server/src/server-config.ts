// The entrypoint's own keys, on top of the platform's; combined with every module's schema so one
// parse lists every configuration problem at once.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, env } from '@kaboodle/platform';
import type { ConfigOf } from '@kaboodle/platform';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A remote deployed by its team on its own: where the shell loads its (versioned) manifest. */
function remoteUrl(remote: string) {
  return env.string({
    check: (v) =>
      /^(https?:\/\/\S+|\/\S*)mf-manifest\.json$/.test(v)
        ? undefined
        : `must be a URL or path ending in mf-manifest.json, got ${JSON.stringify(v)}`,
    description: `Manifest URL of the ${remote} remote when its team deploys it on its own (a versioned path, e.g. /mf/${remote}/1.4.0/mf-manifest.json); unset: the build in this image`,
  });
}

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
  REMOTE_DASHBOARD_URL: remoteUrl('dashboard'),
  REMOTE_VAULT_URL: remoteUrl('vault'),
  REMOTE_INVENTORY_URL: remoteUrl('inventory'),
  REMOTE_OBSERVATORY_URL: remoteUrl('observatory'),
  SHUTDOWN_TIMEOUT: env.duration({ default: '15s', description: 'How long a graceful stop may take' }),
};

export const serverConfig = defineConfig(serverFields);
export type ServerConfig = ConfigOf<typeof serverFields>;
