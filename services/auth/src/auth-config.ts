// The auth service's env keys, declared with the platform config kit (one parse reports every problem),
// and the typed AuthConfig the module works with.
import { defineConfig, env } from '@kaboodle/platform';
import type { ConfigOf } from '@kaboodle/platform';

export const GOOGLE_JWKS_DEFAULT_URL = 'https://www.googleapis.com/oauth2/v3/certs';

/**
 * Values that mean "not configured" even though they are set (docs/product.md#validation: the placeholder
 * disables Google).
 */
const GOOGLE_PLACEHOLDERS = [
  /^your[-_ ]?(google[-_ ]?)?client[-_ ]?id/i,
  /placeholder/i,
  /^changeme$/i,
  /^x+$/i,
];

/**
 * docs/product.md#validation: Google sign-in is enabled only for a configured, non-placeholder id of at least
 * 10 characters.
 */
export function isGoogleClientIdUsable(id: string | undefined): id is string {
  if (id === undefined) return false;
  const trimmed = id.trim();
  return trimmed.length >= 10 && !GOOGLE_PLACEHOLDERS.some((p) => p.test(trimmed));
}

const origin = (item: string): string | undefined => {
  try {
    const url = new URL(item);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === item) return undefined;
  } catch {
    // fall through
  }
  return 'must be an origin like https://app.example.com (scheme, host, optional port; no path)';
};

const simpleEmail = (item: string): string | undefined =>
  /^[^\s@]+@[^\s@]+$/.test(item) ? undefined : 'must be an email address';

/** "address" or "Name <address>", on one line. */
const mailbox = (v: string): string | undefined =>
  /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(v.trim())
    ? undefined
    : 'must be an address or "Name <address>"';

/** The base of links in e-mail: scheme, host, optional port and path; no query or fragment. */
const baseUrl = (v: string): string | undefined => {
  const url = new URL(v);
  return url.search || url.hash || url.username
    ? 'must be a plain address like https://kaboodle.example.com'
    : undefined;
};

export const authFields = {
  GOOGLE_CLIENT_ID: env.string({
    description:
      'Google OAuth client id; Google sign-in is enabled only when set (≥ 10 chars, not a placeholder)',
  }),
  GOOGLE_JWKS_URL: env.url({
    protocols: ['http', 'https'],
    default: GOOGLE_JWKS_DEFAULT_URL,
    description: "Google's signing keys (JWKS) used to verify ID tokens; fetched lazily and cached",
  }),
  ADMIN_EMAILS: env.list({
    item: simpleEmail,
    default: [],
    description: 'Comma list of emails whose accounts are admins (applied on register and on every login)',
  }),
  AUTH_KEY_SECRET: env.string({
    secret: true,
    check: (v) => (v.length >= 16 ? undefined : 'must be at least 16 characters'),
    description: 'Encrypts the token-signing private keys at rest (AES-256-GCM); unset: stored unencrypted',
  }),
  ACCESS_TOKEN_TTL: env.duration({
    default: '10m',
    min: 30_000,
    max: 3_600_000,
    description: 'Lifetime of signed access tokens',
  }),
  SESSION_TTL: env.duration({
    default: '1d',
    min: 60_000,
    max: 90 * 86_400_000,
    description: 'Lifetime of a server-side session (renewed on refresh)',
  }),
  SIGNING_KEY_ROTATION: env.duration({
    default: '30d',
    min: 3_600_000,
    description: 'Age after which the active signing key is rotated automatically',
  }),
  COOKIE_SECURE: env.bool({
    default: true,
    description: 'Mark auth cookies Secure (SameSite=None needs it); false only for plain-http test setups',
  }),
  ALLOWED_ORIGINS: env.list({
    item: origin,
    default: [],
    description: 'Origins besides the request host allowed to make state-changing calls (CSRF rule)',
  }),
  SMTP_URL: env.url({
    protocols: ['smtp', 'smtps'],
    secret: true,
    description:
      'SMTP server for account e-mail (smtp://user:pass@host:587, or smtps:// for TLS from the start); unset: messages are written to KABOODLE_DATA_DIR/mail/ and logged',
  }),
  MAIL_FROM: env.string({
    check: mailbox,
    description: 'Sender of account e-mail, "Name <address>" or an address (required with SMTP_URL)',
  }),
  PUBLIC_BASE_URL: env.url({
    protocols: ['http', 'https'],
    check: baseUrl,
    description:
      'Where people open Kaboodle, for the links in account e-mail (required with SMTP_URL); unset: the address this server listens on',
  }),
};

export const authConfigSchema = defineConfig(authFields, {
  validate(c) {
    const problems: string[] = [];
    if (
      c.ACCESS_TOKEN_TTL !== undefined &&
      c.SESSION_TTL !== undefined &&
      c.ACCESS_TOKEN_TTL > c.SESSION_TTL
    ) {
      problems.push('ACCESS_TOKEN_TTL: must not be longer than SESSION_TTL');
    }
    // Mail that reaches real people must carry links to the real address and a real sender; the
    // request's Host header is never used for links (anyone can forge it: reset-link poisoning).
    if (c.SMTP_URL !== undefined) {
      if (c.PUBLIC_BASE_URL === undefined)
        problems.push('PUBLIC_BASE_URL: is required when SMTP_URL is set (the links in e-mail point there)');
      if (c.MAIL_FROM === undefined)
        problems.push('MAIL_FROM: is required when SMTP_URL is set (the sender of account e-mail)');
    }
    return problems;
  },
});

export type AuthEnv = ConfigOf<typeof authFields>;

export interface AuthConfig {
  /** Null when Google sign-in is disabled (docs/product.md#validation). */
  googleClientId: string | null;
  googleJwksUrl: string;
  /** Lower-cased. */
  adminEmails: string[];
  /** Null: private keys are stored unencrypted (a warning is logged). */
  keySecret: string | null;
  accessTokenTtlMs: number;
  sessionTtlMs: number;
  signingKeyRotationMs: number;
  cookieSecure: boolean;
  allowedOrigins: string[];
  /** Null: the local mail folder. */
  smtpUrl: string | null;
  /** Null: the adapter's default sender. */
  mailFrom: string | null;
  /** Without a trailing slash; null: the address the server listens on. */
  publicBaseUrl: string | null;
}

/** AuthConfig from already-parsed env (e.g. the entrypoint's combined parse). */
export function toAuthConfig(e: AuthEnv): AuthConfig {
  return {
    googleClientId: isGoogleClientIdUsable(e.GOOGLE_CLIENT_ID) ? e.GOOGLE_CLIENT_ID.trim() : null,
    googleJwksUrl: e.GOOGLE_JWKS_URL,
    adminEmails: e.ADMIN_EMAILS.map((m) => m.toLowerCase()),
    keySecret: e.AUTH_KEY_SECRET ?? null,
    accessTokenTtlMs: e.ACCESS_TOKEN_TTL,
    sessionTtlMs: e.SESSION_TTL,
    signingKeyRotationMs: e.SIGNING_KEY_ROTATION,
    cookieSecure: e.COOKIE_SECURE,
    allowedOrigins: e.ALLOWED_ORIGINS,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM?.trim() ?? null,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? null,
  };
}

/** Parse the auth keys from an env source; throws ConfigError listing every problem. */
export function parseAuthConfig(
  source: Readonly<Record<string, string | undefined>> = process.env,
): AuthConfig {
  return toAuthConfig(authConfigSchema.parse(source));
}
