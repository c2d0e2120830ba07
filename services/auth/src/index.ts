// @kaboodle/auth: accounts, sessions, roles, signing keys and the account e-mail they need.
export { createAuthModule } from './module.ts';
export type { AuthModule, AuthModuleDeps, AuthModuleLimiters } from './module.ts';
export {
  authConfigSchema,
  authFields,
  isGoogleClientIdUsable,
  parseAuthConfig,
  toAuthConfig,
} from './auth-config.ts';
export type { AuthConfig, AuthEnv } from './auth-config.ts';
export type { PublicUser } from './auth-core.ts';
export type { AdminUserRow } from './account.service.ts';
export { authOperations } from './auth.api.ts';
export { createAuthAdmin } from './auth-admin.ts';
export type { AuthAdmin } from './auth-admin.ts';
export type { RoleChange } from './roles.ts';
export { openMailer } from './mail/open-mailer.ts';
export type { Mailer, MailMessage, SentMail } from './mail/mailer.ts';
export { createMemoryRateLimiter, createPostgresRateLimiter } from './rate-limiter.ts';
export type { RateLimiter, RateLimitDecision, RateLimitRule } from './rate-limiter.ts';

// Also public: what the server composes and the contract tests exercise (no deep imports).
export { createLocalMailer } from './mail/local-mailer.ts';
export { createSmtpMailer } from './mail/smtp-mailer.ts';
