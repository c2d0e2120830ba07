// The operator's side of roles, without the HTTP service: what `kaboodle admin grant|revoke <email>`
// runs against the auth database of the configured engines. The changes and their events are
// written through the outbox like the service's own; the auth service's relay publishes them
// (within a second while it runs, else at its next start), so verifiers in other processes drop
// the sessions a revocation ended.
import { childLogger } from '@kaboodle/platform';
import type { Database, EventBus, Logger } from '@kaboodle/platform';
import { createOutbox, OUTBOX_MIGRATIONS } from '@kaboodle/platform';
import type { AuthConfig } from './auth-config.ts';
import { createAuthStores } from './auth-stores.ts';
import { authMigrations } from './migrations.ts';
import { createRoles } from './roles.ts';
import type { RoleChange } from './roles.ts';

export interface AuthAdmin {
  grant(email: string): Promise<RoleChange>;
  revoke(email: string): Promise<RoleChange>;
}

export async function createAuthAdmin(deps: {
  db: Database;
  config: Pick<AuthConfig, 'adminEmails' | 'accessTokenTtlMs'>;
  /** The bus the events are meant for; the outbox only stores them here, it is not relayed from this process. */
  bus: EventBus;
  logger: Logger;
}): Promise<AuthAdmin> {
  const logger = childLogger(deps.logger, 'auth.admin');
  await deps.db.migrate([...authMigrations, ...OUTBOX_MIGRATIONS]);
  const outbox = createOutbox({ db: deps.db, bus: deps.bus, logger });
  const stores = createAuthStores({ db: deps.db, outbox, accessTokenTtlMs: deps.config.accessTokenTtlMs });
  const roles = createRoles({ stores, adminEmails: deps.config.adminEmails, logger });
  return { grant: roles.grant, revoke: roles.revoke };
}
