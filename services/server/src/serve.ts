// Runs the targets until a signal (start, print where it listens, stop gracefully on SIGTERM/SIGINT),
// or runs `kaboodle admin …` and exits.
import { ConfigError } from '@kaboodle/platform';
import { AdminCommandError, runAdminCommand } from './admin-command.ts';
import { startKaboodle } from './kaboodle.ts';
import { UnknownTargetError } from './module-manager.ts';

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

export async function admin(args: string[], target: string): Promise<number> {
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

export async function serve(target: string): Promise<number> {
  let app;
  try {
    app = await startKaboodle({ target });
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
