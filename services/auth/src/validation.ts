// Input validation at the edge: every request body is checked here before the domain sees it,
// and every refusal is an InputError (400) whose message a person can act on.
import { InputError } from '@kaboodle/platform';

export const MAX_EMAIL_LENGTH = 254;
export const MAX_NAME_LENGTH = 100;
/** The spec sets no password rule beyond non-empty; the cap keeps argon2 from being fed megabytes. */
export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_INSTRUCTIONS_LENGTH = 2000;
export const DESTINATIONS = ['auto', 'document', 'inventory'] as const;
export type Destination = (typeof DESTINATIONS)[number];

export type Body = Record<string, unknown>;

// eslint-disable-next-line no-control-regex -- control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
// Pragmatic address shape: local@domain.tld, no spaces, quotes, brackets or control characters.
const EMAIL = /^[^\s@"(),:;<>[\]\\]{1,64}@(?=.{1,253}$)[^\s@"(),:;<>[\]\\.]+(\.[^\s@"(),:;<>[\]\\.]+)+$/;

export function asBody(body: unknown): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InputError('Request body must be a JSON object');
  }
  return body as Body;
}

function present(body: Body, field: string): boolean {
  return body[field] !== undefined && body[field] !== null;
}

export function requiredString(body: Body, field: string, label: string): string {
  const value = body[field];
  if (value === undefined || value === null) throw new InputError(`${label} is required`);
  if (typeof value !== 'string') throw new InputError(`${label} must be a string`);
  return value;
}

export function optionalString(body: Body, field: string, label: string): string | undefined {
  return present(body, field) ? requiredString(body, field, label) : undefined;
}

/** Trimmed; the original case is kept for display, uniqueness uses normalizeEmail. */
export function parseEmail(raw: string): string {
  const email = raw.trim();
  if (email === '') throw new InputError('Email is required');
  if (email.length > MAX_EMAIL_LENGTH)
    throw new InputError(`Email must be at most ${MAX_EMAIL_LENGTH} characters`);
  if (CONTROL.test(email) || !EMAIL.test(email)) throw new InputError('Email must be a valid email address');
  return email;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Trimmed, 1–100 characters; stored as text and never interpreted as HTML. */
export function parseName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw new InputError('Name is required');
  if (name.length > MAX_NAME_LENGTH)
    throw new InputError(`Name must be at most ${MAX_NAME_LENGTH} characters`);
  if (CONTROL.test(name)) throw new InputError('Name must not contain control characters');
  return name;
}

export function parsePassword(raw: string, label = 'Password'): string {
  if (raw.length === 0) throw new InputError(`${label} is required`);
  if (raw.length > MAX_PASSWORD_LENGTH) {
    throw new InputError(`${label} must be at most ${MAX_PASSWORD_LENGTH} characters`);
  }
  return raw;
}

export interface Credentials {
  email: string;
  password: string;
}

export function parseCredentials(body: unknown): Credentials {
  const b = asBody(body);
  const email = parseEmail(requiredString(b, 'email', 'Email'));
  const password = parsePassword(requiredString(b, 'password', 'Password'));
  return { email, password };
}

export function parseRegistration(body: unknown): Credentials & { name: string } {
  const b = asBody(body);
  const email = parseEmail(requiredString(b, 'email', 'Email'));
  const password = parsePassword(requiredString(b, 'password', 'Password'));
  const name = parseName(requiredString(b, 'name', 'Name'));
  return { email, password, name };
}

export function parseGoogleLogin(body: unknown): { credential: string; clientId: string | undefined } {
  const b = asBody(body ?? {});
  const credential = b.credential;
  // The spec's own text (section 5) for a missing credential.
  if (typeof credential !== 'string' || credential.trim() === '')
    throw new InputError('No Google credential received');
  if (credential.length > 16_384) throw new InputError('Google credential is too long');
  const clientId = optionalString(b, 'clientId', 'clientId');
  return { credential: credential.trim(), clientId };
}

export interface ProfileChange {
  name?: string;
  email?: string;
  currentPassword?: string;
}

export function parseProfileChange(body: unknown): ProfileChange {
  const b = asBody(body);
  const change: ProfileChange = {};
  const name = optionalString(b, 'name', 'Name');
  if (name !== undefined) change.name = parseName(name);
  const email = optionalString(b, 'email', 'Email');
  if (email !== undefined) change.email = parseEmail(email);
  const current = optionalString(b, 'current_password', 'Current password');
  if (current !== undefined) change.currentPassword = parsePassword(current, 'Current password');
  if (change.name === undefined && change.email === undefined)
    throw new InputError('Name or email is required');
  return change;
}

export function parsePasswordChange(body: unknown): { currentPassword: string; newPassword: string } {
  const b = asBody(body);
  return {
    currentPassword: parsePassword(
      requiredString(b, 'current_password', 'Current password'),
      'Current password',
    ),
    newPassword: parsePassword(requiredString(b, 'new_password', 'New password'), 'New password'),
  };
}

export interface SettingsChange {
  defaultInstructions?: string;
  defaultDestination?: Destination;
}

export function parseSettingsChange(body: unknown): SettingsChange {
  const b = asBody(body);
  const change: SettingsChange = {};
  const instructions = optionalString(b, 'default_instructions', 'default_instructions');
  if (instructions !== undefined) {
    if (instructions.length > MAX_INSTRUCTIONS_LENGTH) {
      throw new InputError(`default_instructions must be at most ${MAX_INSTRUCTIONS_LENGTH} characters`);
    }
    change.defaultInstructions = instructions;
  }
  const destination = optionalString(b, 'default_destination', 'default_destination');
  if (destination !== undefined) {
    if (!(DESTINATIONS as readonly string[]).includes(destination)) {
      throw new InputError(`default_destination must be one of ${DESTINATIONS.join(', ')}`);
    }
    change.defaultDestination = destination as Destination;
  }
  if (instructions === undefined && destination === undefined) {
    throw new InputError('default_instructions or default_destination is required');
  }
  return change;
}

/** ?limit&offset for list endpoints: integers within bounds, else 400. */
export function parsePage(query: Record<string, unknown>, maxLimit = 500): { limit: number; offset: number } {
  const int = (v: unknown, name: string, def: number, min: number, max: number): number => {
    if (v === undefined) return def;
    if (typeof v !== 'string' || !/^\d{1,9}$/.test(v)) throw new InputError(`${name} must be a whole number`);
    const n = Number(v);
    if (n < min || n > max) throw new InputError(`${name} must be between ${min} and ${max}`);
    return n;
  };
  return {
    limit: int(query.limit, 'limit', 100, 1, maxLimit),
    offset: int(query.offset, 'offset', 0, 0, 1e9),
  };
}

/** POST /admin/keys/rotate: optional {immediate: boolean}. */
export function parseRotation(body: unknown): { immediate: boolean } {
  const b = asBody(body ?? {});
  if (b.immediate !== undefined && typeof b.immediate !== 'boolean')
    throw new InputError('immediate must be true or false');
  return { immediate: b.immediate === true };
}
