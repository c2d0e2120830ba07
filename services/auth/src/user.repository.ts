// Users and their settings in the auth schema. Emails are unique case-insensitively (email_normalized);
// an address waiting for verification (pending_email) claims nothing until it is confirmed.
import { ConflictError, runAll, runFirst, sql } from '@kaboodle/platform';
import type { Queryable, Selectable } from '@kaboodle/platform';
import type { UpdateObject } from 'kysely';
import type { Destination } from './account-fields.ts';
import { authSql as q0 } from './db-schema.ts';
import type { DB, Users } from './db-schema.gen.ts';

export type Role = 'user' | 'admin';
/** The operator's explicit word on the admin role (kaboodle admin grant|revoke); null: ADMIN_EMAILS decides. */
export type AdminGrant = 'granted' | 'revoked' | null;

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  googleSub: string | null;
  role: Role;
  createdAt: Date;
  lastLoginAt: Date | null;
  /** When the current address was proven by a link sent to it (or by Google); null: not yet. */
  emailVerifiedAt: Date | null;
  /** A new address waiting for its verification link. */
  pendingEmail: string | null;
  adminGrant: AdminGrant;
}

export interface UserSettings {
  defaultInstructions: string;
  defaultDestination: Destination;
}

export interface NewUser {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  googleSub: string | null;
  role: Role;
  /** Set for accounts whose address is already proven (Google said email_verified). */
  emailVerified: boolean;
}

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';

/** SQLSTATE 23505 anywhere in the cause chain (pg and PGlite both set `code`; adapters wrap errors). */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 10; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const COLUMNS = [
  'id',
  'email',
  'name',
  'password_hash',
  'google_sub',
  'role',
  'created_at',
  'last_login_at',
  'email_verified_at',
  'pending_email',
  'admin_grant',
] as const satisfies readonly (keyof Users)[];

function toUser(r: Pick<Selectable<Users>, (typeof COLUMNS)[number]>): UserRecord {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    passwordHash: r.password_hash,
    googleSub: r.google_sub,
    role: r.role,
    createdAt: r.created_at,
    lastLoginAt: r.last_login_at,
    emailVerifiedAt: r.email_verified_at,
    pendingEmail: r.pending_email,
    adminGrant: r.admin_grant,
  };
}

const now = sql<Date>`now()`;

export interface UserRepository {
  /** Throws ConflictError when the email (any case) or Google account already has a user. */
  create(user: NewUser): Promise<UserRecord>;
  findById(id: string): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  findByGoogleSub(sub: string): Promise<UserRecord | null>;
  linkGoogle(id: string, sub: string): Promise<void>;
  setRole(id: string, role: Role): Promise<void>;
  setAdminGrant(id: string, grant: AdminGrant): Promise<void>;
  recordLogin(id: string): Promise<void>;
  rename(id: string, name: string): Promise<UserRecord | null>;
  /** Marks the account's address verified, only if it still is `email`; null when it is not. */
  markVerified(id: string, email: string): Promise<UserRecord | null>;
  /** Records (or clears) the new address waiting for verification. */
  setPendingEmail(id: string, email: string | null): Promise<UserRecord | null>;
  /**
   * Makes the verified pending address the sign-in address, only if it still is the pending one;
   * null when it is not. Throws ConflictError when another account has taken it meanwhile.
   */
  confirmEmailChange(id: string, email: string): Promise<UserRecord | null>;
  setPasswordHash(id: string, passwordHash: string): Promise<void>;
  list(page: { limit: number; offset: number }): Promise<UserRecord[]>;
  /** Accounts whose role may differ from what ADMIN_EMAILS and the grants say (admins, listed addresses, grants). */
  roleCandidates(adminEmails: string[]): Promise<UserRecord[]>;
  getSettings(id: string): Promise<UserSettings>;
  updateSettings(id: string, change: Partial<UserSettings>): Promise<UserSettings>;
}

export function createUserRepository(db: Queryable): UserRepository {
  const conflict = (err: unknown): never => {
    if (isUniqueViolation(err)) throw new ConflictError(EMAIL_TAKEN_MESSAGE, { cause: err });
    throw err;
  };
  const byColumn = async (column: 'id' | 'email_normalized' | 'google_sub', value: string) => {
    const row = await runFirst(db, q0.selectFrom('users').select(COLUMNS).where(column, '=', value));
    return row ? toUser(row) : null;
  };
  /** Sets the fields on the user (updated_at too) and returns it; null when there is no such user. */
  const update = async (id: string, set: UpdateObject<DB, 'users'>) => {
    const row = await runFirst(db, q0.updateTable('users').set(set).where('id', '=', id).returning(COLUMNS));
    return row ? toUser(row) : null;
  };
  return {
    async create(u) {
      try {
        const created = await runFirst(
          db,
          q0
            .insertInto('users')
            .values({
              id: u.id,
              email: u.email,
              email_normalized: u.email.toLowerCase(),
              name: u.name,
              password_hash: u.passwordHash,
              google_sub: u.googleSub,
              role: u.role,
              email_verified_at: u.emailVerified ? now : null,
            })
            .returning(COLUMNS),
        );
        return toUser(created!);
      } catch (err) {
        return conflict(err);
      }
    },
    findById: (id) => byColumn('id', id),
    findByEmail: (email) => byColumn('email_normalized', email.toLowerCase()),
    findByGoogleSub: (sub) => byColumn('google_sub', sub),
    async linkGoogle(id, sub) {
      await update(id, { google_sub: sub, updated_at: now }).catch(conflict);
    },
    async setRole(id, role) {
      await update(id, { role, updated_at: now });
    },
    async setAdminGrant(id, grant) {
      await update(id, { admin_grant: grant, updated_at: now });
    },
    async recordLogin(id) {
      await update(id, { last_login_at: now });
    },
    rename: (id, name) => update(id, { name, updated_at: now }),
    async markVerified(id, email) {
      const row = await runFirst(
        db,
        q0
          .updateTable('users')
          .set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', now), updated_at: now }))
          .where('id', '=', id)
          .where('email_normalized', '=', sql<string>`lower(${email})`)
          .returning(COLUMNS),
      );
      return row ? toUser(row) : null;
    },
    setPendingEmail: (id, email) => update(id, { pending_email: email, updated_at: now }),
    async confirmEmailChange(id, email) {
      try {
        const row = await runFirst(
          db,
          q0
            .updateTable('users')
            .set({
              email: sql<string>`pending_email`,
              email_normalized: sql<string>`lower(pending_email)`,
              pending_email: null,
              email_verified_at: now,
              updated_at: now,
            })
            .where('id', '=', id)
            .where(sql<boolean>`lower(pending_email) = lower(${email})`)
            .returning(COLUMNS),
        );
        return row ? toUser(row) : null;
      } catch (err) {
        return conflict(err);
      }
    },
    async setPasswordHash(id, passwordHash) {
      await update(id, { password_hash: passwordHash, updated_at: now });
    },
    async list({ limit, offset }) {
      const rows = await runAll(
        db,
        q0
          .selectFrom('users')
          .select(COLUMNS)
          .orderBy('created_at')
          .orderBy('id')
          .limit(limit)
          .offset(offset),
      );
      return rows.map(toUser);
    },
    async roleCandidates(adminEmails) {
      const rows = await runAll(
        db,
        q0
          .selectFrom('users')
          .select(COLUMNS)
          .where((eb) =>
            eb.or([
              eb('role', '=', 'admin'),
              eb('admin_grant', 'is not', null),
              eb('email_normalized', '=', sql<string>`ANY(${adminEmails}::text[])`),
            ]),
          ),
      );
      return rows.map(toUser);
    },
    async getSettings(id) {
      const r = await runFirst(
        db,
        q0
          .selectFrom('user_settings')
          .select(['default_instructions', 'default_destination'])
          .where('user_id', '=', id),
      );
      return r
        ? { defaultInstructions: r.default_instructions, defaultDestination: r.default_destination }
        : { defaultInstructions: '', defaultDestination: 'auto' };
    },
    async updateSettings(id, change) {
      const r = await runFirst(
        db,
        q0
          .insertInto('user_settings')
          .values({
            user_id: id,
            default_instructions: change.defaultInstructions ?? '',
            default_destination: change.defaultDestination ?? 'auto',
          })
          .onConflict((oc) =>
            oc.column('user_id').doUpdateSet((eb) => ({
              // a field the change leaves out keeps its stored value
              default_instructions:
                change.defaultInstructions ?? eb.ref('user_settings.default_instructions'),
              default_destination: change.defaultDestination ?? eb.ref('user_settings.default_destination'),
              updated_at: now,
            })),
          )
          .returning(['default_instructions', 'default_destination']),
      );
      return { defaultInstructions: r!.default_instructions, defaultDestination: r!.default_destination };
    },
  };
}
