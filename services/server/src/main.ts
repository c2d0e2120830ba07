// `kaboodle --target=all|auth|ingestion|processing|catalogue|search|web` (or a comma list), and
// `kaboodle admin grant|revoke <email>`. Bootstraps only: parse the command line, start, print the
// URL, stop gracefully on a signal (or run the admin command and exit).
import { parseArgs } from 'node:util';
import { ConfigError } from '@kaboodle/platform';
import { ADMIN_USAGE, AdminCommandError, runAdminCommand } from './admin-command.ts';
import { startKaboodle, VERSION } from './kaboodle.ts';
import { UnknownTargetError } from './module-manager.ts';

const USAGE = `Usage: kaboodle --target=<targets>
       ${ADMIN_USAGE}

  --target   all, or a comma list of auth, ingestion, processing, catalogue, search, web (default all)
  --version  print the version
  --help     print this help

  admin grant <email>   make the account an admin (its address must be verified)
  admin revoke <email>  the account is not an admin, whatever ADMIN_EMAILS says; its sessions end

Configuration comes from the environment; see README.md ("Configuration").`;

/** Configuration problems are the operator's to fix: one clear line each, no stack trace. */
function reportStartProblem(err: unknown): number {
  if (err instanceof ConfigError || err instanceof UnknownTargetError) {
    for (const line of err instanceof ConfigError ? err.problems : err.message.split('\n')) {
      console.error(`kaboodle: ${line}`);
    }
    return 2;
  }
  return -1;
}

async function admin(args: string[], target: string): Promise<number> {
  try {
    console.log(await runAdminCommand({ args, target, env: process.env }));
    return 0;
  } catch (err) {
    const code = reportStartProblem(err);
    if (code !== -1) return code;
    if (err instanceof AdminCommandError) {
      console.error(`kaboodle: ${err.message}`);
      return err.usage ? 2 : 1;
    }
    console.error(`kaboodle: admin ${args[0] ?? ''}: ${(err as Error).message}`);
    return 1;
  }
}

async function main(): Promise<number> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
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
  if (values.version) {
    console.log(VERSION);
    return 0;
  }
  if (positionals[0] === 'admin') return admin(positionals.slice(1), values.target);
  if (positionals.length > 0) {
    console.error(`kaboodle: unknown command ${JSON.stringify(positionals[0])}`);
    console.error(USAGE);
    return 2;
  }

  let app;
  try {
    app = await startKaboodle({ target: values.target });
  } catch (err) {
    const code = reportStartProblem(err);
    if (code !== -1) return code;
    console.error(`kaboodle: could not start: ${(err as Error).message}`);
    return 1;
  }

  const grpc = app.grpcAddress ? `; gRPC on ${app.grpcAddress}` : '';
  console.log(`Kaboodle is running at ${app.url} (targets: ${app.targets.join(', ')}${grpc})`);

  return new Promise<number>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) {
        console.error(`kaboodle: ${signal} again, exiting now`);
        resolve(130);
        return;
      }
      console.log(`kaboodle: ${signal} received, stopping gracefully`);
      app.stop().then(
        () => resolve(0),
        (err: unknown) => {
          console.error(`kaboodle: stopping: ${(err as Error).message}`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

process.exitCode = await main();
// Timers of a stopped module must not keep the process alive past a graceful stop.
setTimeout(() => process.exit(), 2000).unref();
