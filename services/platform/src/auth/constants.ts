// Names shared by the auth service (which issues) and every service (which verifies): one home so they never drift.

/** `iss` of every access token the auth service signs. */
export const ACCESS_TOKEN_ISSUER = 'kaboodle-auth';
/** `aud` of every access token: the Kaboodle API as a whole. */
export const ACCESS_TOKEN_AUDIENCE = 'kaboodle-api';
/** JWT `typ` header of access tokens (RFC 9068): keeps an ID token or other JWT from passing as one. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
/** Asymmetric algorithms only: `none` and HS* are never accepted. */
export const ACCESS_TOKEN_ALGORITHMS = ['EdDSA', 'Ed25519', 'ES256'] as const;

export const ACCESS_COOKIE = 'kaboodle_access';
export const SESSION_COOKIE = 'kaboodle_session';
export const CSRF_COOKIE = 'kaboodle_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Path of the published key set on the auth service. */
export const JWKS_PATH = '/api/auth/jwks';

/** The 401/403 texts of the error catalogue (docs/product.md#messages), word for word. */
export const SESSION_EXPIRED_MESSAGE = 'Session expired';
export const ACCESS_DENIED_MESSAGE = 'Access denied. You may not have permission for this action.';
