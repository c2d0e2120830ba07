// Runs the targets until a signal (start, print where it listens, stop gracefully on SIGTERM/SIGINT),
// or until a module fails after start (then exit 1), or runs `kaboodle admin …` and exits.
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
    let stopping = false;
    const stopThenExit = (code: number) => {
      stopping = true;
      app.stop().then(
        () => resolve(code),
        (err: unknown) => {
          console.error(`kaboodle: stopping: ${(err as Error).message}`);
          resolve(1);
        },
      );
    };
    // A module that died after start: serving on half dead would go unnoticed, so stop and exit 1
    // for the supervisor to restart the process (readiness already fails meanwhile).
    void app.failed.then((err) => {
      if (stopping) return;
      console.error(`kaboodle: ${err.message}; stopping`);
      stopThenExit(1);
    });
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) {
        console.error(`kaboodle: ${signal} again, exiting now`);
        resolve(130);
        return;
      }
      console.log(`kaboodle: ${signal} received, stopping gracefully`);
      if (!stopping) stopThenExit(0);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
