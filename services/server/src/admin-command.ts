// `kaboodle admin grant|revoke <email>`: the operator's explicit word on who is an admin, written to
// the auth database of the configured engines (DATABASE_URL, or the embedded one under
// KABOODLE_DATA_DIR: then Kaboodle must be stopped, since two processes cannot share it). A grant
// needs a verified address; a revoke ends every session of the account at once.
import { createLogger, DomainError } from '@kaboodle/platform';
import { createMemoryEventBus } from '@kaboodle/platform';
import { createAuthAdmin, toAuthConfig } from '@kaboodle/auth';
import { openServiceDatabase, parseKaboodleConfig, planTargets } from './kaboodle.ts';

export class AdminCommandError extends Error {
  /** A mistake in the command line itself (exit status 2), not in what it asked for. */
  readonly usage: boolean;
  constructor(message: string, options: { usage?: boolean } = {}) {
    super(message);
    this.usage = options.usage === true;
  }
}

export const ADMIN_USAGE = 'kaboodle admin grant|revoke <email> [--target=<targets>]';

export async function runAdminCommand(options: {
  args: readonly string[];
  /** The --target the services run with: it decides where the embedded database lives. */
  target: string;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<string> {
  const [action, email, ...extra] = options.args;
  if ((action !== 'grant' && action !== 'revoke') || !email || extra.length > 0) {
    throw new AdminCommandError(`usage: ${ADMIN_USAGE}`, { usage: true });
  }
  if (!/^[^\s@]+@[^\s@]+$/.test(email))
    throw new AdminCommandError(`${JSON.stringify(email)} is not an email address`, { usage: true });
  const { running } = planTargets(options.target);
  if (!running.has('auth'))
    throw new AdminCommandError(
      `--target=${options.target} does not run auth, whose database holds the roles`,
      { usage: true },
    );
  const config = parseKaboodleConfig(options.env, running);
  // Quiet: the command's own answer is its output.
  const logger = createLogger({ level: 'warn', component: 'kaboodle-admin' });
  const db = openServiceDatabase(config, running, 'auth', logger);
  const bus = createMemoryEventBus({ logger });
  try {
    const admin = await createAuthAdmin({ db, config: toAuthConfig(config), bus, logger });
    if (action === 'grant') {
      const change = await admin.grant(email);
      return `${change.email} is an admin (sessions already open see it at their next refresh).`;
    }
    const change = await admin.revoke(email);
    const ended = change.revokedSessions;
    return `${change.email} is not an admin (ADMIN_EMAILS no longer makes it one); ${ended} session${ended === 1 ? '' : 's'} ended.`;
  } catch (err) {
    if (err instanceof DomainError) throw new AdminCommandError(err.message);
    throw err;
  } finally {
    await bus.close();
    await db.close();
  }
}
