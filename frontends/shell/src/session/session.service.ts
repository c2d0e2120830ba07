// The session's calls (docs/product.md#states, #validation, #calls, #messages and the auth contract), free of
// React: each sign-in call succeeds only when the answer is OK and carries a user; failures become the
// catalogue's texts.
import { ApiError, asSessionUser, type ApiClient, type SessionUser } from '@kaboodle/kit';

export type AuthOutcome = { ok: true; user: SessionUser; token?: string } | { ok: false; error: string };

interface AuthTexts {
  fallback: string;
  exception: string;
}

export const AUTH_TEXTS = {
  login: { fallback: 'Login failed', exception: 'Network error during login' },
  register: { fallback: 'Registration failed', exception: 'Network error during registration' },
  google: { fallback: 'Google login failed', exception: 'Google login error' },
  admin: { fallback: 'Admin login failed', exception: 'Network error during admin login' },
  reset: {
    fallback: 'Setting the new password failed',
    exception: 'Network error while setting the password',
  },
} as const satisfies Record<string, AuthTexts>;

export const NO_GOOGLE_CREDENTIAL = 'No Google credential received';

export interface GoogleConfig {
  enabled: boolean;
  clientId: string | null;
}

export interface SessionService {
  checkSession(): Promise<SessionUser | null>;
  login(email: string, password: string): Promise<AuthOutcome>;
  register(email: string, password: string, name: string): Promise<AuthOutcome>;
  loginWithGoogle(credential: string, clientId: string): Promise<AuthOutcome>;
  adminLogin(email: string, password: string): Promise<AuthOutcome>;
  /** Opens a password reset link: the new password is set and this browser is signed in. */
  resetPassword(token: string, newPassword: string): Promise<AuthOutcome>;
  logout(): Promise<void>;
  googleConfig(): Promise<GoogleConfig>;
}

/**
 * docs/product.md#validation: the provider counts as enabled only with a real-looking client id (≥ 10
 * characters).
 */
export function isUsableGoogleClientId(clientId: unknown): clientId is string {
  return (
    typeof clientId === 'string' &&
    clientId.trim().length >= 10 &&
    !/^(your[-_ ]?google[-_ ]?client[-_ ]?id|placeholder|changeme|xxx+)/i.test(clientId.trim())
  );
}

function outcomeOf(body: unknown, texts: AuthTexts): AuthOutcome {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const user = asSessionUser(record.user);
  if (!user) {
    const message = typeof record.message === 'string' && record.message ? record.message : texts.fallback;
    return { ok: false, error: message };
  }
  const token = typeof record.token === 'string' && record.token ? record.token : undefined;
  return token ? { ok: true, user, token } : { ok: true, user };
}

function failureOf(err: unknown, texts: AuthTexts): AuthOutcome {
  // An HTTP answer: the server's message, else the fallback. No answer at all: the exception text.
  if (err instanceof ApiError && err.kind === 'http')
    return { ok: false, error: err.serverMessage ?? texts.fallback };
  if (err instanceof ApiError && err.kind === 'invalid-response') return { ok: false, error: texts.fallback };
  return { ok: false, error: texts.exception };
}

export function createSessionService(api: ApiClient): SessionService {
  const signIn = async (path: string, body: unknown, texts: AuthTexts): Promise<AuthOutcome> => {
    try {
      return outcomeOf(await api.post<unknown>(path, body, { onUnauthorized: 'none' }), texts);
    } catch (err) {
      return failureOf(err, texts);
    }
  };

  return {
    async checkSession() {
      try {
        // An expired access token is refreshed silently; no answer means "signed out"
        // (docs/product.md#messages).
        const body = await api.get<{ user?: unknown }>('/api/auth/session', { onUnauthorized: 'silent' });
        return asSessionUser(body?.user);
      } catch {
        return null;
      }
    },
    login: (email, password) => signIn('/api/auth/login', { email, password }, AUTH_TEXTS.login),
    register: (email, password, name) =>
      signIn('/api/auth/register', { email, password, name }, AUTH_TEXTS.register),
    async loginWithGoogle(credential, clientId) {
      if (!credential) return { ok: false, error: NO_GOOGLE_CREDENTIAL };
      return signIn('/api/auth/google', { credential, clientId }, AUTH_TEXTS.google);
    },
    adminLogin: (email, password) => signIn('/api/auth/admin/login', { email, password }, AUTH_TEXTS.admin),
    resetPassword: (token, newPassword) =>
      signIn('/api/auth/password-reset/confirm', { token, new_password: newPassword }, AUTH_TEXTS.reset),
    async logout() {
      await api.post('/api/auth/logout', undefined, { onUnauthorized: 'none' });
    },
    async googleConfig() {
      try {
        const body = await api.get<{ google?: { enabled?: unknown; clientId?: unknown } }>(
          '/api/auth/config',
          {
            onUnauthorized: 'none',
          },
        );
        const clientId = body?.google?.clientId;
        const enabled = body?.google?.enabled === true && isUsableGoogleClientId(clientId);
        return { enabled, clientId: enabled ? (clientId as string) : null };
      } catch {
        return { enabled: false, clientId: null };
      }
    },
  };
}
