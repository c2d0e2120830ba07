// Users and their settings in the auth schema. Emails are unique case-insensitively (email_normalized);
// an address waiting for verification (pending_email) claims nothing until it is confirmed.
import { ConflictError } from '@kaboodle/platform';
import type { Queryable } from '@kaboodle/platform';
import type { Destination } from './account-fields.ts';

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

interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  google_sub: string | null;
  role: Role;
  created_at: Date | string;
  last_login_at: Date | string | null;
  email_verified_at: Date | string | null;
  pending_email: string | null;
  admin_grant: AdminGrant;
}

/** SQLSTATE 23505 anywhere in the cause chain (pg and PGlite both set `code`; adapters wrap errors). */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 10; depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

const toDate = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));

function toUser(r: UserRow): UserRecord {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    passwordHash: r.password_hash,
    googleSub: r.google_sub,
    role: r.role,
    createdAt: toDate(r.created_at),
    lastLoginAt: r.last_login_at === null ? null : toDate(r.last_login_at),
    emailVerifiedAt: r.email_verified_at === null ? null : toDate(r.email_verified_at),
    pendingEmail: r.pending_email,
    adminGrant: r.admin_grant,
  };
}

const COLUMNS =
  'id, email, name, password_hash, google_sub, role, created_at, last_login_at, email_verified_at, pending_email, admin_grant';

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
  const one = async (sql: string, params: unknown[]): Promise<UserRecord | null> => {
    const { rows } = await db.query<UserRow>(sql, params);
    return rows[0] ? toUser(rows[0]) : null;
  };
  const conflict = (err: unknown): never => {
    if (isUniqueViolation(err)) throw new ConflictError(EMAIL_TAKEN_MESSAGE, { cause: err });
    throw err;
  };
  return {
    async create(u) {
      try {
        const created = await one(
          `INSERT INTO users (id, email, email_normalized, name, password_hash, google_sub, role, email_verified_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::boolean THEN now() END) RETURNING ${COLUMNS}`,
          [
            u.id,
            u.email,
            u.email.toLowerCase(),
            u.name,
            u.passwordHash,
            u.googleSub,
            u.role,
            u.emailVerified,
          ],
        );
        return created!;
      } catch (err) {
        return conflict(err);
      }
    },
    findById: (id) => one(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]),
    findByEmail: (email) =>
      one(`SELECT ${COLUMNS} FROM users WHERE email_normalized = $1`, [email.toLowerCase()]),
    findByGoogleSub: (sub) => one(`SELECT ${COLUMNS} FROM users WHERE google_sub = $1`, [sub]),
    async linkGoogle(id, sub) {
      await db
        .query(`UPDATE users SET google_sub = $2, updated_at = now() WHERE id = $1`, [id, sub])
        .catch(conflict);
    },
    async setRole(id, role) {
      await db.query(`UPDATE users SET role = $2, updated_at = now() WHERE id = $1`, [id, role]);
    },
    async setAdminGrant(id, grant) {
      await db.query(`UPDATE users SET admin_grant = $2, updated_at = now() WHERE id = $1`, [id, grant]);
    },
    async recordLogin(id) {
      await db.query(`UPDATE users SET last_login_at = now() WHERE id = $1`, [id]);
    },
    rename: (id, name) =>
      one(`UPDATE users SET name = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [id, name]),
    markVerified: (id, email) =>
      one(
        `UPDATE users SET email_verified_at = COALESCE(email_verified_at, now()), updated_at = now()
         WHERE id = $1 AND email_normalized = lower($2) RETURNING ${COLUMNS}`,
        [id, email],
      ),
    setPendingEmail: (id, email) =>
      one(`UPDATE users SET pending_email = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [
        id,
        email,
      ]),
    async confirmEmailChange(id, email) {
      try {
        return await one(
          `UPDATE users SET email = pending_email, email_normalized = lower(pending_email), pending_email = NULL,
             email_verified_at = now(), updated_at = now()
           WHERE id = $1 AND lower(pending_email) = lower($2) RETURNING ${COLUMNS}`,
          [id, email],
        );
      } catch (err) {
        return conflict(err);
      }
    },
    async setPasswordHash(id, passwordHash) {
      await db.query(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [
        id,
        passwordHash,
      ]);
    },
    async list({ limit, offset }) {
      const { rows } = await db.query<UserRow>(
        `SELECT ${COLUMNS} FROM users ORDER BY created_at, id LIMIT $1 OFFSET $2`,
        [limit, offset],
      );
      return rows.map(toUser);
    },
    async roleCandidates(adminEmails) {
      const { rows } = await db.query<UserRow>(
        `SELECT ${COLUMNS} FROM users
         WHERE role = 'admin' OR admin_grant IS NOT NULL OR email_normalized = ANY($1::text[])`,
        [adminEmails],
      );
      return rows.map(toUser);
    },
    async getSettings(id) {
      const { rows } = await db.query<{ default_instructions: string; default_destination: Destination }>(
        `SELECT default_instructions, default_destination FROM user_settings WHERE user_id = $1`,
        [id],
      );
      const r = rows[0];
      return r
        ? { defaultInstructions: r.default_instructions, defaultDestination: r.default_destination }
        : { defaultInstructions: '', defaultDestination: 'auto' };
    },
    async updateSettings(id, change) {
      const { rows } = await db.query<{ default_instructions: string; default_destination: Destination }>(
        `INSERT INTO user_settings (user_id, default_instructions, default_destination)
         VALUES ($1, COALESCE($2, ''), COALESCE($3, 'auto'))
         ON CONFLICT (user_id) DO UPDATE SET
           default_instructions = COALESCE($2, user_settings.default_instructions),
           default_destination = COALESCE($3, user_settings.default_destination),
           updated_at = now()
         RETURNING default_instructions, default_destination`,
        [id, change.defaultInstructions ?? null, change.defaultDestination ?? null],
      );
      const r = rows[0]!;
      return { defaultInstructions: r.default_instructions, defaultDestination: r.default_destination };
    },
  };
}
