// Generated from auth's migrations by generateDatabaseTypes (make db-types): do not edit.
import type { Destination } from './account-fields.ts';
import type { EmailTokenPurpose } from './email-token.repository.ts';
import type { AdminGrant, Role } from './user.repository.ts';
import type { Jsonb } from '@kaboodle/platform';
import type { JWK } from 'jose';
import type { ColumnType } from 'kysely';

export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U>
    ? ColumnType<S, I | undefined, U>
    : ColumnType<T, T | undefined, T>;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface EmailTokens {
  created_at: Generated<Timestamp>;
  email: string;
  expires_at: Timestamp;
  purpose: EmailTokenPurpose;
  token_hash: string;
  used_at: Timestamp | null;
  user_id: string;
}

export interface RateLimits {
  expire: number | null;
  key: string;
  points: Generated<number>;
}

export interface Sessions {
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  id: string;
  ip: string | null;
  last_used_at: Generated<Timestamp>;
  previous_refresh_hash: string | null;
  refresh_hash: string;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
  rotated_at: Timestamp | null;
  user_agent: string | null;
  user_id: string;
}

export interface SigningKeys {
  active_from: Generated<Timestamp>;
  alg: string;
  created_at: Generated<Timestamp>;
  kid: string;
  private_key: string;
  public_jwk: Jsonb<JWK>;
  retired_at: Timestamp | null;
}

export interface Users {
  admin_grant: AdminGrant;
  created_at: Generated<Timestamp>;
  email: string;
  email_normalized: string;
  email_verified_at: Timestamp | null;
  google_sub: string | null;
  id: string;
  last_login_at: Timestamp | null;
  name: string;
  password_hash: string | null;
  pending_email: string | null;
  role: Generated<Role>;
  updated_at: Generated<Timestamp>;
}

export interface UserSettings {
  default_destination: Generated<Destination>;
  default_instructions: Generated<string>;
  updated_at: Generated<Timestamp>;
  user_id: string;
}

export interface DB {
  email_tokens: EmailTokens;
  rate_limits: RateLimits;
  sessions: Sessions;
  signing_keys: SigningKeys;
  user_settings: UserSettings;
  users: Users;
}
