// Sign-in outcomes and texts (docs/product.md#validation, #messages) against a scripted API client.
import { describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiClient } from '@kaboodle/kit';
import {
  AUTH_TEXTS,
  NO_GOOGLE_CREDENTIAL,
  createSessionService,
  isUsableGoogleClientId,
} from './session.service.ts';

const user = {
  id: 'u1',
  email: 'ada@example.com',
  name: 'Ada',
  displayName: 'Ada',
  role: 'user',
  created_at: '2026-01-01',
};

function clientAnswering(
  post: (path: string, body: unknown) => Promise<unknown>,
  get?: (path: string) => Promise<unknown>,
): ApiClient {
  return {
    post: vi.fn((path: string, body?: unknown) => post(path, body)),
    get: vi.fn((path: string) => (get ? get(path) : Promise.reject(new Error('no get')))),
  } as unknown as ApiClient;
}

const http = (status: number, serverMessage?: string) =>
  new ApiError({ status, kind: 'http', message: 'x', ...(serverMessage ? { serverMessage } : {}) });

describe('session service', () => {
  it('succeeds only when the answer carries a user, keeping the token', async () => {
    const service = createSessionService(
      clientAnswering(async () => ({ user, message: 'Login successful', token: 'jwt' })),
    );
    await expect(service.login('ada@example.com', 'pw')).resolves.toEqual({
      ok: true,
      user: {
        id: 'u1',
        email: 'ada@example.com',
        name: 'Ada',
        displayName: 'Ada',
        role: 'user',
        created_at: '2026-01-01',
      },
      token: 'jwt',
    });
    const noUser = createSessionService(clientAnswering(async () => ({ message: 'Login successful' })));
    await expect(noUser.login('a', 'b')).resolves.toEqual({ ok: false, error: 'Login successful' });
    const empty = createSessionService(clientAnswering(async () => ({})));
    await expect(empty.register('a', 'b', 'c')).resolves.toEqual({ ok: false, error: 'Registration failed' });
  });

  it('a password reset link signs in like a sign-in call, and keeps the verification state of the user', async () => {
    const calls: Array<[string, unknown]> = [];
    const service = createSessionService(
      clientAnswering(async (path, body) => {
        calls.push([path, body]);
        return {
          user: { ...user, email_verified_at: '2026-02-01T00:00:00.000Z', pending_email: null },
          message: 'Password reset',
          token: 'jwt',
        };
      }),
    );
    const outcome = await service.resetPassword('tok', 'brand new passphrase');
    expect(calls).toEqual([
      ['/api/auth/password-reset/confirm', { token: 'tok', new_password: 'brand new passphrase' }],
    ]);
    expect(outcome).toMatchObject({
      ok: true,
      token: 'jwt',
      user: { email_verified_at: '2026-02-01T00:00:00.000Z', pending_email: null },
    });
    const refused = createSessionService(
      clientAnswering(async () => Promise.reject(http(400, 'New password must be at least 8 characters'))),
    );
    await expect(refused.resetPassword('tok', 'short')).resolves.toEqual({
      ok: false,
      error: 'New password must be at least 8 characters',
    });
  });

  it('shows the server message, else each call’s fallback', async () => {
    const withMessage = createSessionService(
      clientAnswering(async () => Promise.reject(http(401, 'Login failed'))),
    );
    await expect(withMessage.login('a', 'b')).resolves.toEqual({ ok: false, error: 'Login failed' });
    const bare = createSessionService(clientAnswering(async () => Promise.reject(http(500))));
    await expect(bare.login('a', 'b')).resolves.toEqual({ ok: false, error: AUTH_TEXTS.login.fallback });
    await expect(bare.register('a', 'b', 'c')).resolves.toEqual({ ok: false, error: 'Registration failed' });
    await expect(bare.adminLogin('a', 'b')).resolves.toEqual({ ok: false, error: 'Admin login failed' });
    await expect(bare.loginWithGoogle('cred', 'client')).resolves.toEqual({
      ok: false,
      error: 'Google login failed',
    });
  });

  it('uses the exception texts when no answer came back', async () => {
    const offline = createSessionService(
      clientAnswering(async () =>
        Promise.reject(new ApiError({ status: 0, kind: 'network', message: 'offline' })),
      ),
    );
    await expect(offline.login('a', 'b')).resolves.toEqual({
      ok: false,
      error: 'Network error during login',
    });
    await expect(offline.register('a', 'b', 'c')).resolves.toEqual({
      ok: false,
      error: 'Network error during registration',
    });
    await expect(offline.adminLogin('a', 'b')).resolves.toEqual({
      ok: false,
      error: 'Network error during admin login',
    });
    await expect(offline.loginWithGoogle('cred', 'c')).resolves.toEqual({
      ok: false,
      error: 'Google login error',
    });
  });

  it('refuses a Google sign-in without a credential before calling the server', async () => {
    const post = vi.fn();
    const service = createSessionService(clientAnswering(post));
    await expect(service.loginWithGoogle('', 'client-id-123')).resolves.toEqual({
      ok: false,
      error: NO_GOOGLE_CREDENTIAL,
    });
    expect(post).not.toHaveBeenCalled();
  });

  it('treats any failing session check as signed out (silent)', async () => {
    const service = createSessionService(
      clientAnswering(
        async () => ({}),
        async () => Promise.reject(http(401)),
      ),
    );
    await expect(service.checkSession()).resolves.toBeNull();
    const ok = createSessionService(
      clientAnswering(
        async () => ({}),
        async () => ({ user }),
      ),
    );
    await expect(ok.checkSession()).resolves.toMatchObject({ id: 'u1' });
  });

  it('enables Google only with a usable client id (docs/product.md#validation)', async () => {
    expect(isUsableGoogleClientId('123456789-abc.apps.googleusercontent.com')).toBe(true);
    expect(isUsableGoogleClientId('short')).toBe(false);
    expect(isUsableGoogleClientId('your-google-client-id')).toBe(false);
    expect(isUsableGoogleClientId(null)).toBe(false);
    const configured = (google: unknown) =>
      createSessionService(
        clientAnswering(
          async () => ({}),
          async () => ({ google }),
        ),
      ).googleConfig();
    await expect(
      configured({ enabled: true, clientId: '123456789-abc.apps.googleusercontent.com' }),
    ).resolves.toEqual({
      enabled: true,
      clientId: '123456789-abc.apps.googleusercontent.com',
    });
    await expect(configured({ enabled: true, clientId: 'short' })).resolves.toEqual({
      enabled: false,
      clientId: null,
    });
    await expect(configured({ enabled: false, clientId: null })).resolves.toEqual({
      enabled: false,
      clientId: null,
    });
  });
});
