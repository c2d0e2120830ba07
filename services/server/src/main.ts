// `kaboodle --target=all|auth|ingestion|processing|catalogue|search|web` (or a comma list), the admin
// command `kaboodle admin grant|revoke <email>`, and the operator commands `kaboodle dlq …`,
// `kaboodle search reindex`, `kaboodle topics …` (commands.ts). Bootstraps only: for a server, the
// OpenTelemetry import hook and SDK start before any instrumented package (express, pg, grpc-js) is
// imported; then the app is imported and started.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const USAGE = `Usage: kaboodle --target=<targets>
       kaboodle admin grant|revoke <email> [--target=...]
       kaboodle <command> ...

  --target   all, or a comma list of auth, ingestion, processing, catalogue, search, web (default all)
  --version  print the version
  --help     print this help

  admin grant <email>   make the account an admin (its address must be verified)
  admin revoke <email>  the account is not an admin, whatever ADMIN_EMAILS says; its sessions end

Commands (operators; configuration from the same environment):
  dlq list [--topic T] [--limit N]        dead-lettered events and why they failed
  dlq replay --topic T [--limit N]        publish dead letters of T back to T, once each
  topics check | topics create            the event topics (and their .dlq twins) exist / make them
  search reindex [--if-needed]            rebuild the search index once, under the reindex lease

Configuration comes from the environment; see README.md ("Configuration").`;

const COMMANDS = new Set(['dlq', 'topics', 'search']);

async function main(argv: string[]): Promise<number> {
  if (argv[0] && COMMANDS.has(argv[0])) {
    const { runCommand } = await import('./commands.ts');
    return runCommand(argv);
  }
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: {
        target: { type: 'string', default: 'all' },
        help: { type: 'boolean', default: false },
        version: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (err) {
    console.error(`kaboodle: ${(err as Error).message}`);
    console.error(USAGE);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const version: string = JSON.parse(
    readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
  ).version;
  if (values.version) {
    console.log(version);
    return 0;
  }
  if (positionals[0] === 'admin') {
    const { admin } = await import('./serve.ts');
    return admin(positionals.slice(1), values.target);
  }
  if (positionals.length > 0) {
    console.error(`kaboodle: unknown command ${JSON.stringify(positionals[0])}`);
    console.error(USAGE);
    return 2;
  }

  // A server starts with the memory settings of runtime-tuning.ts: without them this process
  // replaces itself by one that has them (same PID), before anything is loaded.
  const { restartTunedIfNeeded } = await import('./runtime-tuning.ts');
  restartTunedIfNeeded();

  // Auto-instrumentation: the hook first, then the SDK, then everything it instruments.
  const { installInstrumentationHooks } = await import('@kaboodle/platform/instrumentations');
  installInstrumentationHooks();
  const { startTelemetry } = await import('@kaboodle/platform/telemetry');
  startTelemetry({
    serviceName: process.env.OTEL_SERVICE_NAME || 'kaboodle',
    serviceVersion: version,
    otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    instrument: true,
  });
  const { serve } = await import('./serve.ts');
  return serve(values.target);
}

process.exitCode = await main(process.argv.slice(2));
// Timers of a stopped module must not keep the process alive past a graceful stop.
setTimeout(() => process.exit(), 2000).unref();
