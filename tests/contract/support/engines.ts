// Which real engines a contract suite can exercise here: an engine's URL in the environment wins
// (CI, a developer's `make engines-up`); otherwise testcontainers starts one when a Docker engine
// answers; otherwise the suite skips that engine and says why. Suites print what they exercised.
//
// Usage in a suite (top-level await is fine in vitest ESM files):
//   const pg = await resolveEngine(postgresEngine);
//   describe.skipIf(!pg.available)('postgres', () => { ... pg.handle.config ... });
//   afterAll(() => stopEngines([pg]));
import { GenericContainer, Wait, getContainerRuntimeClient } from 'testcontainers';
import type { StartedTestContainer } from 'testcontainers';

export type EngineSource = 'env' | 'testcontainers';

export interface EngineHandle<C> {
  name: string;
  source: EngineSource;
  config: C;
  /** Human-readable location, e.g. `postgres://…@127.0.0.1:5433/postgres (DATABASE_URL)`. */
  detail: string;
  /** Stops what this helper started (a container); a no-op for engines from the environment. */
  stop(): Promise<void>;
}

export type EngineResolution<C> =
  | { available: true; name: string; handle: EngineHandle<C> }
  | { available: false; name: string; reason: string };

export interface EngineSpec<C> {
  /** e.g. `postgres`, `s3`, `kafka`. */
  name: string;
  /** The variables that point at a running engine; the first one decides whether it is configured. */
  env: string[];
  /** Config from the environment, or undefined when the engine is not configured there. */
  fromEnv(env: NodeJS.ProcessEnv): C | undefined;
  /** Start a throwaway engine in a container (only called when Docker answers). */
  container?: () => Promise<{ config: C; detail: string; stop(): Promise<void> }>;
}

let dockerProbe: Promise<{ ok: true } | { ok: false; reason: string }> | undefined;

/** Whether a container runtime answers (cached; rejects in ~1 ms when there is none). */
export function dockerAvailable(): Promise<{ ok: true } | { ok: false; reason: string }> {
  dockerProbe ??= getContainerRuntimeClient().then(
    () => ({ ok: true as const }),
    (err: unknown) => ({ ok: false as const, reason: err instanceof Error ? err.message : String(err) }),
  );
  return dockerProbe;
}

export async function resolveEngine<C>(spec: EngineSpec<C>): Promise<EngineResolution<C>> {
  const fromEnv = spec.fromEnv(process.env);
  if (fromEnv !== undefined) {
    return {
      available: true,
      name: spec.name,
      handle: {
        name: spec.name,
        source: 'env',
        config: fromEnv,
        detail: `${spec.env[0]}=${redact(process.env[spec.env[0] ?? ''] ?? '')}`,
        stop: async () => {},
      },
    };
  }
  const unset = `${spec.env[0]} is not set`;
  if (!spec.container)
    return { available: false, name: spec.name, reason: `${unset} and no container recipe exists` };
  if (process.env.KABOODLE_NO_TESTCONTAINERS === '1') {
    return { available: false, name: spec.name, reason: `${unset} and KABOODLE_NO_TESTCONTAINERS=1` };
  }
  const docker = await dockerAvailable();
  if (!docker.ok) {
    return {
      available: false,
      name: spec.name,
      reason: `${unset} and no Docker engine answers (${docker.reason})`,
    };
  }
  try {
    const started = await spec.container();
    return {
      available: true,
      name: spec.name,
      handle: { name: spec.name, source: 'testcontainers', ...started },
    };
  } catch (err) {
    // Docker answered but the container did not start (no network to pull, …): skip, loudly.
    return {
      available: false,
      name: spec.name,
      reason: `${unset} and its testcontainer failed to start: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

export async function stopEngines(resolutions: EngineResolution<unknown>[]): Promise<void> {
  await Promise.all(resolutions.map((r) => (r.available ? r.handle.stop() : undefined)));
}

/**
 * Collects what a suite exercised and prints one block at the end, e.g.
 *   [contract:database] exercised: pglite (embedded), postgres (env: DATABASE_URL=…)
 *   [contract:database] skipped: postgres: DATABASE_URL is not set and no Docker engine answers (…)
 */
export function createEngineReport(suite: string) {
  const exercised: string[] = [];
  const skipped: string[] = [];
  const lines = (): string[] => [
    `[contract:${suite}] exercised: ${exercised.join(', ') || 'nothing'}`,
    ...skipped.map((s) => `[contract:${suite}] skipped ${s}`),
  ];
  return {
    embedded(name: string): void {
      exercised.push(`${name} (embedded)`);
    },
    add(resolution: EngineResolution<unknown>): void {
      if (resolution.available) {
        exercised.push(`${resolution.name} (${resolution.handle.source}: ${resolution.handle.detail})`);
      } else {
        skipped.push(`${resolution.name}: ${resolution.reason}`);
      }
    },
    lines,
    print(): void {
      // stderr so it shows even when vitest swallows console.log of passing tests
      process.stderr.write(`${lines().join('\n')}\n`);
    },
  };
}

/** Hide passwords in URLs before printing them. */
export function redact(value: string): string {
  return value.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}

async function startContainer(
  image: string,
  setup: (c: GenericContainer) => GenericContainer,
): Promise<StartedTestContainer> {
  return setup(new GenericContainer(image)).start();
}

// ---- engine recipes shared by the suites -------------------------------------------------------

export interface PostgresEngineConfig {
  url: string;
}

export const postgresEngine: EngineSpec<PostgresEngineConfig> = {
  name: 'postgres',
  env: ['DATABASE_URL'],
  fromEnv: (env) => (env.DATABASE_URL ? { url: env.DATABASE_URL } : undefined),
  container: async () => {
    const c = await startContainer('postgres:16-alpine', (g) =>
      g
        .withEnvironment({
          POSTGRES_PASSWORD: 'kaboodle',
          POSTGRES_USER: 'kaboodle',
          POSTGRES_DB: 'kaboodle',
        })
        .withExposedPorts(5432)
        // the image logs "ready" once for its init server and once for the real one
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2)),
    );
    const url = `postgres://kaboodle:kaboodle@${c.getHost()}:${c.getMappedPort(5432)}/kaboodle`;
    return {
      config: { url },
      detail: `postgres:16-alpine at ${redact(url)}`,
      stop: async () => void (await c.stop()),
    };
  },
};

export interface S3EngineConfig {
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  region: string;
}

/** S3_ENDPOINT is a URL (`http://127.0.0.1:4569`); keys and region have s3rver/MinIO-friendly defaults. */
export function s3ConfigFromEnv(env: NodeJS.ProcessEnv): S3EngineConfig | undefined {
  if (!env.S3_ENDPOINT) return undefined;
  const u = new URL(env.S3_ENDPOINT);
  const useSSL = u.protocol === 'https:';
  return {
    endPoint: u.hostname,
    port: u.port ? Number(u.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: env.S3_ACCESS_KEY ?? 'S3RVER',
    secretKey: env.S3_SECRET_KEY ?? 'S3RVER',
    region: env.S3_REGION ?? 'us-east-1',
  };
}

export const s3Engine: EngineSpec<S3EngineConfig> = {
  name: 's3',
  env: ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_REGION'],
  fromEnv: s3ConfigFromEnv,
  container: async () => {
    const c = await startContainer('minio/minio:latest', (g) =>
      g
        .withEnvironment({ MINIO_ROOT_USER: 'kaboodle', MINIO_ROOT_PASSWORD: 'kaboodle-secret' })
        .withCommand(['server', '/data'])
        .withExposedPorts(9000)
        .withWaitStrategy(Wait.forHttp('/minio/health/live', 9000)),
    );
    const config: S3EngineConfig = {
      endPoint: c.getHost(),
      port: c.getMappedPort(9000),
      useSSL: false,
      accessKey: 'kaboodle',
      secretKey: 'kaboodle-secret',
      region: 'us-east-1',
    };
    return {
      config,
      detail: `minio/minio at http://${config.endPoint}:${config.port}`,
      stop: async () => void (await c.stop()),
    };
  },
};
