// The auth schema: users, server-side sessions, signing keys and per-user settings.
// Shipped migrations are never edited; add a new one instead.
import type { Migration } from '@kaboodle/platform';

export const authMigrations: Migration[] = [
  {
    id: '0001_users_sessions_keys',
    sql: `
CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  -- lower-cased email: uniqueness is case-insensitive
  email_normalized text NOT NULL UNIQUE,
  name text NOT NULL,
  -- null for accounts that only sign in with Google
  password_hash text,
  google_sub text UNIQUE,
  role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz
);

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- SHA-256 (hex) of the current refresh secret; the secret itself is only in the client's cookie
  refresh_hash text NOT NULL,
  -- the secret before the last rotation: a late duplicate is tolerated briefly, a later replay revokes
  previous_refresh_hash text,
  rotated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text,
  user_agent text,
  ip text
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  alg text NOT NULL,
  public_jwk jsonb NOT NULL,
  -- "enc-v1:..." (AES-256-GCM under AUTH_KEY_SECRET) or "plain-v1:<pkcs8 pem>"
  private_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- set when a newer key took over signing; still published until tokens it signed have expired
  retired_at timestamptz
);

CREATE TABLE user_settings (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  default_instructions text NOT NULL DEFAULT '',
  default_destination text NOT NULL DEFAULT 'auto' CHECK (default_destination IN ('auto', 'document', 'inventory')),
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    id: '0002_signing_key_activation',
    // A rotated-in key is published before it signs anything, so every verifier's cached key set
    // already holds it when the first token with its kid arrives.
    sql: `
ALTER TABLE signing_keys ADD COLUMN active_from timestamptz;
UPDATE signing_keys SET active_from = created_at;
ALTER TABLE signing_keys ALTER COLUMN active_from SET NOT NULL;
ALTER TABLE signing_keys ALTER COLUMN active_from SET DEFAULT now();
`,
  },
  {
    id: '0003_email_verification',
    // Privileges follow verified addresses only. Accounts created by Google sign-in had Google's
    // word for their address (it was required then), so Google-only accounts start verified;
    // password accounts start unverified (their owners verify through the banner's "resend").
    sql: `
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;
-- a new address waiting for its verification link; the sign-in address changes when it is opened
ALTER TABLE users ADD COLUMN pending_email text;
-- the operator's word (kaboodle admin grant|revoke), which wins over ADMIN_EMAILS; null: the list decides
ALTER TABLE users ADD COLUMN admin_grant text CHECK (admin_grant IN ('granted', 'revoked'));
UPDATE users SET email_verified_at = created_at WHERE google_sub IS NOT NULL AND password_hash IS NULL;

-- single-use links sent by e-mail: only the SHA-256 of the secret is stored
CREATE TABLE email_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  -- the address the link was sent to (verification: the address it proves)
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose);
CREATE INDEX email_tokens_expires_idx ON email_tokens (expires_at);
`,
  },
  {
    id: '0004_rate_limits',
    // Attempt counts shared by every replica (rate-limiter.ts, rate-limiter-flexible's Postgres
    // layout): key is "<limiter>:<subject>", points the attempts in the window, expire its end (ms).
    sql: `
CREATE TABLE rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
`,
  },
];
