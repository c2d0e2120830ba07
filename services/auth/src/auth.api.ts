// The auth service's HTTP operations, declared once: sign-in (password, Google, admin), the session
// (refresh, logout), address verification and password reset by e-mail, profile, password,
// settings, and the admin calls. auth.routes.ts and account.routes.ts bind the handlers; the OpenAPI
// document and the frontends' types come from these declarations.
import * as z from 'zod';
import { defineOperation } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import {
  DESTINATIONS,
  destinationField,
  emailField,
  instructionsField,
  linkTokenField,
  nameField,
  newPasswordField,
  optional,
  pageNumber,
  passwordField,
} from './account-fields.ts';

/** The auth router's own ceiling for JSON bodies: nothing it takes comes near it. */
export const AUTH_BODY_LIMIT = '64kb';
const NO_GOOGLE_CREDENTIAL = 'No Google credential received';

const when = z.iso.datetime({ offset: true });

export const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    displayName: z.string().meta({ description: 'Same as name.' }),
    role: z.enum(['user', 'admin']),
    created_at: when,
    email_verified_at: when.nullable().meta({
      description: 'When the address was proven by a link sent to it (or by Google); null: not yet.',
    }),
    pending_email: z.string().nullable().meta({
      description:
        'A new address waiting for its verification link; the sign-in address until then is email.',
    }),
  })
  .meta({ id: 'AuthUser' });

const signedIn = z
  .object({
    user: userSchema,
    message: z.string(),
    token: z.string().meta({ description: 'The access token, for `Authorization: Bearer …`.' }),
  })
  .meta({ id: 'AuthSignedIn' });
const messageOnly = z.object({ message: z.string() }).meta({ id: 'AuthMessage' });
const settings = z
  .object({ default_instructions: z.string(), default_destination: z.enum(DESTINATIONS) })
  .meta({ id: 'AuthUserSettings' });

const credentials = z.object({ email: emailField(), password: passwordField() });
const json = <T extends z.ZodType>(schema: T, required = true) => ({
  json: schema,
  limit: AUTH_BODY_LIMIT,
  ...(required ? {} : { required: false }),
});
const SETS_COOKIES = {
  'Set-Cookie': {
    description: 'kaboodle_access, kaboodle_session and kaboodle_csrf (see docs/services/auth.md).',
  },
};
const base = { service: 'auth' } as const;

export const getAuthConfig = defineOperation({
  ...base,
  operationId: 'getAuthConfig',
  method: 'get',
  path: '/api/auth/config',
  security: 'public',
  summary: 'Which sign-in methods this server offers',
  responses: {
    200: {
      description: 'Google sign-in, when configured.',
      json: z.object({ google: z.object({ enabled: z.boolean(), clientId: z.string().nullable() }) }),
    },
  },
});

export const getJwks = defineOperation({
  ...base,
  operationId: 'getJwks',
  method: 'get',
  path: '/api/auth/jwks',
  security: 'public',
  summary: 'The public keys access tokens are signed with (cacheable 60 s)',
  responses: {
    200: {
      description: 'A JSON Web Key Set.',
      json: z.object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string().optional() })) }),
    },
  },
});

export const register = defineOperation({
  ...base,
  operationId: 'register',
  method: 'post',
  path: '/api/auth/register',
  security: 'public',
  summary: 'Create an account with email and password, and sign in',
  description:
    'A verification link is mailed to the address; privileges that follow an address (ADMIN_EMAILS) apply once it is verified.',
  body: json(z.object({ email: emailField(), password: newPasswordField(), name: nameField() })),
  responses: { 201: { description: 'Registered and signed in.', json: signedIn, headers: SETS_COOKIES } },
  errors: [403, 409, 429],
});

export const login = defineOperation({
  ...base,
  operationId: 'login',
  method: 'post',
  path: '/api/auth/login',
  security: 'public',
  summary: 'Sign in with email and password',
  body: json(credentials),
  responses: { 200: { description: 'Signed in.', json: signedIn, headers: SETS_COOKIES } },
  errors: [401, 403, 429],
});

export const adminLogin = defineOperation({
  ...base,
  operationId: 'adminLogin',
  method: 'post',
  path: '/api/auth/admin/login',
  security: 'public',
  summary: 'Sign in as an admin (anyone else: 401 "Admin login failed")',
  body: json(credentials),
  responses: { 200: { description: 'Signed in as an admin.', json: signedIn, headers: SETS_COOKIES } },
  errors: [401, 403, 429],
});

export const googleLogin = defineOperation({
  ...base,
  operationId: 'googleLogin',
  method: 'post',
  path: '/api/auth/google',
  security: 'public',
  summary: 'Sign in with a Google ID token (the credential of the sign-in widget)',
  body: json(
    z.object({
      credential: z
        .string({ error: NO_GOOGLE_CREDENTIAL })
        .transform((s) => s.trim())
        .pipe(z.string().min(1, NO_GOOGLE_CREDENTIAL).max(16_384, 'Google credential is too long')),
      clientId: optional(z.string({ error: 'clientId must be a string' })),
    }),
    false,
  ),
  responses: { 200: { description: 'Signed in.', json: signedIn, headers: SETS_COOKIES } },
  errors: [401, 403, 404, 409, 429],
});

export const logout = defineOperation({
  ...base,
  operationId: 'logout',
  method: 'post',
  path: '/api/auth/logout',
  security: 'public',
  summary: 'Sign out: revoke the session server-side and clear the cookies (idempotent)',
  responses: { 200: { description: 'Signed out.', json: messageOnly } },
  errors: [403],
});

export const getSession = defineOperation({
  ...base,
  operationId: 'getSession',
  method: 'get',
  path: '/api/auth/session',
  security: 'public',
  summary: 'The signed-in user (with a fresh access token when only the session cookie is left)',
  responses: {
    200: {
      description: 'Signed in.',
      json: z.object({ user: userSchema, token: z.string().optional() }),
    },
  },
  errors: [401],
});

export const refresh = defineOperation({
  ...base,
  operationId: 'refreshSession',
  method: 'post',
  path: '/api/auth/refresh',
  security: 'public',
  summary: "Rotate the session's refresh secret and mint a new access token (roles re-read)",
  responses: {
    200: {
      description: 'Refreshed.',
      json: z.object({ user: userSchema, token: z.string() }),
      headers: SETS_COOKIES,
    },
  },
  errors: [401, 403, 429],
});

export const verifyEmail = defineOperation({
  ...base,
  operationId: 'verifyEmail',
  method: 'post',
  path: '/api/auth/verify-email',
  security: 'public',
  summary: 'Use a verification link: proves the address (or confirms a new one)',
  body: json(z.object({ token: linkTokenField() })),
  responses: { 200: { description: 'Verified.', json: messageOnly } },
  errors: [403, 409, 429],
});

export const resendVerification = defineOperation({
  ...base,
  operationId: 'resendVerification',
  method: 'post',
  path: '/api/auth/verify-email/resend',
  security: 'user',
  summary: 'Mail a new verification link to the address waiting for it',
  responses: { 200: { description: 'Sent (or nothing to verify).', json: messageOnly } },
  errors: [429],
});

export const requestPasswordReset = defineOperation({
  ...base,
  operationId: 'requestPasswordReset',
  method: 'post',
  path: '/api/auth/password-reset',
  security: 'public',
  summary: 'Mail a password reset link (the same answer whether or not the address has an account)',
  body: json(z.object({ email: emailField() })),
  responses: { 202: { description: 'Accepted.', json: messageOnly } },
  errors: [403, 429],
});

export const resetPassword = defineOperation({
  ...base,
  operationId: 'resetPassword',
  method: 'post',
  path: '/api/auth/password-reset/confirm',
  security: 'public',
  summary: 'Use a reset link: set a new password, sign out everywhere, and sign in here',
  body: json(z.object({ token: linkTokenField(), new_password: newPasswordField('New password') })),
  responses: { 200: { description: 'Password set and signed in.', json: signedIn, headers: SETS_COOKIES } },
  errors: [403, 429],
});

export const getProfile = defineOperation({
  ...base,
  operationId: 'getProfile',
  method: 'get',
  path: '/api/auth/profile',
  security: 'user',
  summary: "The signed-in user's profile",
  responses: { 200: { description: 'The profile.', json: z.object({ user: userSchema }) } },
});

export const updateProfile = defineOperation({
  ...base,
  operationId: 'updateProfile',
  method: 'patch',
  path: '/api/auth/profile',
  security: 'user',
  summary: 'Rename, or start an email change (confirmed by a link mailed to the new address)',
  body: json(
    z
      .object({
        name: optional(nameField()),
        email: optional(emailField()),
        current_password: optional(passwordField('Current password')),
      })
      .refine((b) => b.name !== undefined || b.email !== undefined, 'Name or email is required'),
  ),
  responses: {
    200: {
      description: 'Saved; `message` says where a confirmation link went.',
      json: z.object({ user: userSchema, message: z.string().optional() }),
    },
  },
  errors: [409, 429],
});

export const changePassword = defineOperation({
  ...base,
  operationId: 'changePassword',
  method: 'post',
  path: '/api/auth/password',
  security: 'user',
  summary: 'Change the password (signs out every other session)',
  body: json(
    z.object({
      current_password: passwordField('Current password'),
      new_password: newPasswordField('New password'),
    }),
  ),
  responses: { 200: { description: 'Changed.', json: messageOnly } },
  errors: [429],
});

export const getSettings = defineOperation({
  ...base,
  operationId: 'getSettings',
  method: 'get',
  path: '/api/auth/settings',
  security: 'user',
  summary: 'Default AI instructions and processing destination',
  responses: { 200: { description: 'The settings.', json: settings } },
});

export const updateSettings = defineOperation({
  ...base,
  operationId: 'updateSettings',
  method: 'put',
  path: '/api/auth/settings',
  security: 'user',
  summary: 'Save the default AI instructions and/or processing destination',
  body: json(
    z
      .object({
        default_instructions: optional(instructionsField()),
        default_destination: optional(destinationField()),
      })
      .refine(
        (b) => b.default_instructions !== undefined || b.default_destination !== undefined,
        'default_instructions or default_destination is required',
      ),
  ),
  responses: { 200: { description: 'The saved settings.', json: settings } },
});

export const listUsers = defineOperation({
  ...base,
  operationId: 'listUsers',
  method: 'get',
  path: '/api/auth/admin/users',
  security: 'admin',
  summary: 'Every account, for admins',
  query: z.object({
    limit: pageNumber('limit', { min: 1, max: 500, default: 100 }),
    offset: pageNumber('offset', { min: 0, max: 1e9, default: 0 }),
  }),
  responses: {
    200: {
      description: 'A page of accounts.',
      json: z.object({
        users: z.array(
          z.object({
            id: z.string(),
            email: z.string(),
            name: z.string(),
            role: z.enum(['user', 'admin']),
            created_at: when,
            last_login_at: when.nullable(),
          }),
        ),
      }),
    },
  },
});

export const rotateSigningKey = defineOperation({
  ...base,
  operationId: 'rotateSigningKey',
  method: 'post',
  path: '/api/auth/admin/keys/rotate',
  security: 'admin',
  summary: 'Rotate the token-signing key (at once with immediate: true)',
  body: json(
    z.object({ immediate: optional(z.boolean({ error: 'immediate must be true or false' })) }),
    false,
  ),
  responses: { 200: { description: 'The next key.', json: z.object({ kid: z.string() }) } },
});

export const authOperations: readonly OperationSpec[] = [
  getAuthConfig,
  getJwks,
  register,
  login,
  adminLogin,
  googleLogin,
  logout,
  getSession,
  refresh,
  verifyEmail,
  resendVerification,
  requestPasswordReset,
  resetPassword,
  getProfile,
  updateProfile,
  changePassword,
  getSettings,
  updateSettings,
  listUsers,
  rotateSigningKey,
];
