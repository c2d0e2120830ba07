import { describe, expect, it } from 'vitest';
import { ConfigError } from '@kaboodle/platform';
import { GOOGLE_JWKS_DEFAULT_URL, isGoogleClientIdUsable, parseAuthConfig } from './auth-config.ts';

describe('auth config', () => {
  it('runs with no configuration at all', () => {
    expect(parseAuthConfig({})).toEqual({
      googleClientId: null,
      googleJwksUrl: GOOGLE_JWKS_DEFAULT_URL,
      adminEmails: [],
      keySecret: null,
      accessTokenTtlMs: 600_000,
      sessionTtlMs: 86_400_000,
      signingKeyRotationMs: 30 * 86_400_000,
      cookieSecure: true,
      allowedOrigins: [],
      smtpUrl: null,
      mailFrom: null,
      publicBaseUrl: null,
    });
  });

  it('parses every key', () => {
    const c = parseAuthConfig({
      GOOGLE_CLIENT_ID: ' 1234567890-abc.apps.googleusercontent.com ',
      GOOGLE_JWKS_URL: 'http://127.0.0.1:9999/certs',
      ADMIN_EMAILS: 'Boss@Example.com, ops@example.com',
      AUTH_KEY_SECRET: 'sixteen-chars-at-least',
      ACCESS_TOKEN_TTL: '5m',
      SESSION_TTL: '2d',
      COOKIE_SECURE: 'false',
      ALLOWED_ORIGINS: 'http://localhost:5173,https://app.example.com',
      SMTP_URL: 'smtps://kaboodle:app-password@smtp.example.com:465',
      MAIL_FROM: 'Kaboodle <no-reply@example.com>',
      PUBLIC_BASE_URL: 'https://kaboodle.example.com/',
    });
    expect(c).toMatchObject({
      smtpUrl: 'smtps://kaboodle:app-password@smtp.example.com:465',
      mailFrom: 'Kaboodle <no-reply@example.com>',
      publicBaseUrl: 'https://kaboodle.example.com',
      googleClientId: '1234567890-abc.apps.googleusercontent.com',
      adminEmails: ['boss@example.com', 'ops@example.com'],
      keySecret: 'sixteen-chars-at-least',
      accessTokenTtlMs: 300_000,
      sessionTtlMs: 172_800_000,
      cookieSecure: false,
      allowedOrigins: ['http://localhost:5173', 'https://app.example.com'],
    });
  });

  it('lists every problem at once and never echoes the secret', () => {
    let err: unknown;
    try {
      parseAuthConfig({
        GOOGLE_JWKS_URL: 'ftp://x',
        ADMIN_EMAILS: 'not-an-email',
        AUTH_KEY_SECRET: 'short',
        ACCESS_TOKEN_TTL: 'soon',
        COOKIE_SECURE: 'maybe',
        ALLOWED_ORIGINS: 'https://app.example.com/path',
        SMTP_URL: 'http://user:hunter2-password@mail.example.com',
        MAIL_FROM: 'Kaboodle <nobody>',
        PUBLIC_BASE_URL: 'https://kaboodle.example.com/?next=evil',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.join('\n');
    for (const key of [
      'GOOGLE_JWKS_URL',
      'ADMIN_EMAILS',
      'AUTH_KEY_SECRET',
      'ACCESS_TOKEN_TTL',
      'COOKIE_SECURE',
      'ALLOWED_ORIGINS',
      'SMTP_URL',
      'MAIL_FROM',
      'PUBLIC_BASE_URL',
    ]) {
      expect(problems).toContain(key);
    }
    expect(problems).not.toContain('short');
    expect(problems).not.toContain('hunter2');
  });

  it('mail to real people needs a public address for its links and a sender', () => {
    let err: unknown;
    try {
      parseAuthConfig({ SMTP_URL: 'smtp://smtp.example.com:587' });
    } catch (e) {
      err = e;
    }
    expect((err as ConfigError).problems).toEqual([
      'PUBLIC_BASE_URL: is required when SMTP_URL is set (the links in e-mail point there)',
      'MAIL_FROM: is required when SMTP_URL is set (the sender of account e-mail)',
    ]);
    expect(parseAuthConfig({ MAIL_FROM: 'ops@example.com' }).mailFrom).toBe('ops@example.com');
  });

  it('refuses an access token that outlives the session', () => {
    expect(() => parseAuthConfig({ ACCESS_TOKEN_TTL: '1h', SESSION_TTL: '30m' })).toThrow(
      /ACCESS_TOKEN_TTL: must not be longer/,
    );
  });

  it('enables Google only for a real-looking client id (docs/product.md#validation)', () => {
    expect(isGoogleClientIdUsable(undefined)).toBe(false);
    expect(isGoogleClientIdUsable('short')).toBe(false);
    expect(isGoogleClientIdUsable('your-google-client-id')).toBe(false);
    expect(isGoogleClientIdUsable('YOUR_GOOGLE_CLIENT_ID.apps.googleusercontent.com')).toBe(false);
    expect(isGoogleClientIdUsable('placeholder-client-id')).toBe(false);
    expect(isGoogleClientIdUsable('1234567890-abc.apps.googleusercontent.com')).toBe(true);
    expect(parseAuthConfig({ GOOGLE_CLIENT_ID: 'your-google-client-id' }).googleClientId).toBeNull();
  });
});
