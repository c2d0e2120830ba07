// @kaboodle/auth: accounts, sessions, roles and signing keys.
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
export type { PublicUser, AdminUserRow } from './auth.service.ts';
export { createMemoryRateLimiter } from './rate-limiter.ts';
export type { RateLimiter, RateLimitDecision } from './rate-limiter.ts';
