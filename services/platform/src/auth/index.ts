// Token verification every service uses: verify access tokens locally, require a user, enforce CSRF.
export * from './constants.ts';
export * from './cookies.ts';
export * from './csrf.ts';
export * from './require-user.ts';
export * from './session-revocations.ts';
export * from './token-verifier.ts';
