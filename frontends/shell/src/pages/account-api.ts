// The account calls the profile, settings and admin pages make (auth API contract), with the
// response shapes checked so a surprise from the server shows a clear message, not a crash.
import { api } from '@kaboodle/kit';
import type { ApiBody, ApiSchema } from '@kaboodle/kit';

/** The auth contract's settings (generated from the OpenAPI document). */
export type UserSettings = ApiSchema<'AuthUserSettings'>;
export type Destination = UserSettings['default_destination'];
export const DESTINATIONS: Destination[] = ['auto', 'document', 'inventory'];
/** Auth contract: default_instructions is a string of at most 2000 characters. */
export const MAX_INSTRUCTIONS = 2000;

export interface AdminUserRow {
  id: string;
  email: string;
  name: string;
  role: 'user' | 'admin';
  created_at: string | null;
  last_login_at: string | null;
}

export class ResponseShapeError extends Error {}

function record(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== 'object') throw new ResponseShapeError(`Invalid API response (${what})`);
  return value as Record<string, unknown>;
}

export function parseSettings(body: unknown): UserSettings {
  const outer = record(body, 'settings');
  const s = outer.settings && typeof outer.settings === 'object' ? record(outer.settings, 'settings') : outer;
  const instructions = s.default_instructions;
  const destination = s.default_destination;
  return {
    default_instructions: typeof instructions === 'string' ? instructions : '',
    default_destination: DESTINATIONS.includes(destination as Destination)
      ? (destination as Destination)
      : 'auto',
  };
}

export function parseAdminUsers(body: unknown): AdminUserRow[] {
  const users = record(body, 'admin users').users;
  if (!Array.isArray(users)) throw new ResponseShapeError('Invalid API response (admin users)');
  return users.map((u, i) => {
    const r = record(u, `user ${i}`);
    const str = (v: unknown) => (typeof v === 'string' ? v : v == null ? null : String(v));
    return {
      id: String(r.id ?? i),
      email: String(r.email ?? ''),
      name: String(r.name ?? ''),
      role: r.role === 'admin' ? 'admin' : 'user',
      created_at: str(r.created_at),
      last_login_at: str(r.last_login_at),
    };
  });
}

/** Shown under every field where a new password is chosen (the server's rule, NIST 800-63B). */
export const PASSWORD_RULE_HINT = 'At least 8 characters, and not one of the most common passwords.';

type Message = Partial<ApiSchema<'AuthMessage'>>;
type ProfileChange = ApiBody<'updateProfile'>;

export const accountApi = {
  updateProfile: (name: string) => api.patch<unknown>('/api/auth/profile', { name }),
  // The new address becomes the sign-in address once the link mailed to it is opened.
  changeEmail: (email: string, current_password: string) =>
    api.patch<Message & { user?: unknown }>(
      '/api/auth/profile',
      { email, current_password } satisfies ProfileChange,
      { onUnauthorized: 'silent' },
    ),
  resendVerification: () => api.post<Message>('/api/auth/verify-email/resend'),
  // Public calls: the token or the address is the whole request, a 401 is never an expiry here.
  verifyEmail: (token: string) =>
    api.post<Message>('/api/auth/verify-email', { token } satisfies ApiBody<'verifyEmail'>, {
      onUnauthorized: 'none',
    }),
  requestPasswordReset: (email: string) =>
    api.post<Message>('/api/auth/password-reset', { email } satisfies ApiBody<'requestPasswordReset'>, {
      onUnauthorized: 'none',
    }),
  // 'silent': a wrong current password must not be mistaken for an expired session
  changePassword: (current_password: string, new_password: string) =>
    api.post<{ message?: string }>(
      '/api/auth/password',
      { current_password, new_password },
      { onUnauthorized: 'silent' },
    ),
  getSettings: async () => parseSettings(await api.get<unknown>('/api/auth/settings')),
  saveSettings: async (settings: UserSettings) =>
    parseSettings(await api.put<unknown>('/api/auth/settings', settings)),
  listUsers: async () => parseAdminUsers(await api.get<unknown>('/api/auth/admin/users')),
};

/** What to show for a failed call: the API client's user-facing text, else a generic line. */
export function errorText(err: unknown, fallback: string): string {
  if (err instanceof Error && err.message.trim() !== '') return err.message;
  return fallback;
}

/** Dates from the server, shown in the reader's locale; missing or unparsable reads as "Never". */
export function formatWhen(iso: string | null, never = 'Never'): string {
  if (!iso) return never;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return never;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
