// Who is an admin. Privileges follow verified addresses only: an account is an admin when its
// address is verified and either the operator granted it (`kaboodle admin grant`) or, with no word
// from the operator, its address is listed in ADMIN_EMAILS. `kaboodle admin revoke` wins over the
// list. The stored role follows this rule at every sign-in, refresh, verification and start; losing
// admin ends every session of the account, so no token minted as an admin outlives the role.
import { InputError, NotFoundError } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import { normalizeEmail } from './account-fields.ts';
import type { AuthStores } from './auth-stores.ts';
import type { AdminGrant, Role, UserRecord } from './user.repository.ts';

export function effectiveRole(
  user: Pick<UserRecord, 'email' | 'emailVerifiedAt' | 'adminGrant'>,
  adminEmails: readonly string[],
): Role {
  if (!user.emailVerifiedAt) return 'user';
  if (user.adminGrant === 'granted') return 'admin';
  if (user.adminGrant === 'revoked') return 'user';
  return adminEmails.includes(normalizeEmail(user.email)) ? 'admin' : 'user';
}

export interface RoleChange {
  email: string;
  role: Role;
  /** How many sessions the change ended (losing admin ends them all). */
  revokedSessions: number;
}

export type Roles = ReturnType<typeof createRoles>;

export function createRoles(deps: {
  stores: AuthStores;
  adminEmails: readonly string[];
  logger: Pick<Logger, 'info' | 'warn'>;
}) {
  const { stores, adminEmails, logger } = deps;

  /** Brings the stored role in line with the rule; returns the account as it now is. */
  async function apply(user: UserRecord): Promise<UserRecord & { revokedSessions: number }> {
    const role = effectiveRole(user, adminEmails);
    if (role === user.role) return { ...user, revokedSessions: 0 };
    const revoked = await stores.changeRole(user.id, role, { revokeSessions: user.role === 'admin' });
    logger.info({ userId: user.id, role, revokedSessions: revoked.length }, 'role changed');
    return { ...user, role, revokedSessions: revoked.length };
  }

  async function setGrant(email: string, grant: Exclude<AdminGrant, null>): Promise<RoleChange> {
    const user = await stores.users.findByEmail(email);
    if (!user) throw new NotFoundError(`No account uses the address ${email}`);
    if (grant === 'granted' && !user.emailVerifiedAt) {
      throw new InputError(
        `${user.email} has not verified its address yet: its owner opens the link Kaboodle mailed (or "Resend" on the banner), then grant again`,
      );
    }
    await stores.users.setAdminGrant(user.id, grant);
    const after = await apply({ ...user, adminGrant: grant });
    return { email: user.email, role: after.role, revokedSessions: after.revokedSessions };
  }

  return {
    apply,
    /** `kaboodle admin grant <email>`: the account is an admin from now on (its address must be verified). */
    grant: (email: string) => setGrant(email, 'granted'),
    /** `kaboodle admin revoke <email>`: never an admin, whatever ADMIN_EMAILS says; its sessions end. */
    revoke: (email: string) => setGrant(email, 'revoked'),
    /** At start: ADMIN_EMAILS may have changed since the last run. */
    async reconcile(): Promise<number> {
      let changed = 0;
      for (const user of await stores.users.roleCandidates([...adminEmails])) {
        if ((await apply(user)).role !== user.role) changed += 1;
      }
      return changed;
    },
  };
}
