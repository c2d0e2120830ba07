// The auth API's input fields as zod schemas, with the messages people read when a value is refused
// (the first failing rule of the first failing field answers the 400). auth.api.ts builds the
// operations' bodies from these.
import * as z from 'zod';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  isCommonPassword,
  passwordTooCommon,
  passwordTooShort,
} from './password-policy.ts';

export const MAX_EMAIL_LENGTH = 254;
export const MAX_NAME_LENGTH = 100;
export const MAX_INSTRUCTIONS_LENGTH = 2000;
export const DESTINATIONS = ['auto', 'document', 'inventory'] as const;
export type Destination = (typeof DESTINATIONS)[number];

// eslint-disable-next-line no-control-regex -- control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
// Pragmatic address shape: local@domain.tld, no spaces, quotes, brackets or control characters.
const EMAIL = /^[^\s@"(),:;<>[\]\\]{1,64}@(?=.{1,253}$)[^\s@"(),:;<>[\]\\.]+(\.[^\s@"(),:;<>[\]\\.]+)+$/;

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** A string field: "X is required" when absent or null, "X must be a string" for any other type. */
export const text = (label: string) =>
  z.string({ error: (iss) => (iss.input == null ? `${label} is required` : `${label} must be a string`) });

/** An optional field where null means absent, as the hand-written parser treated it. */
export const optional = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((v) => (v === null ? undefined : v) as z.output<T> | undefined);

/** Trimmed; the original case is kept for display, uniqueness uses normalizeEmail. */
export const emailField = (label = 'Email') =>
  text(label)
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, `${label} is required`)
        .max(MAX_EMAIL_LENGTH, `${label} must be at most ${MAX_EMAIL_LENGTH} characters`)
        .refine((v) => !CONTROL.test(v) && EMAIL.test(v), `${label} must be a valid email address`),
    )
    .meta({
      description: 'An email address (case-insensitive).',
      override: { type: 'string', format: 'email' },
    });

/** Trimmed, 1–100 characters; stored as text and never interpreted as HTML. */
export const nameField = () =>
  text('Name')
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, 'Name is required')
        .max(MAX_NAME_LENGTH, `Name must be at most ${MAX_NAME_LENGTH} characters`)
        .refine((v) => !CONTROL.test(v), 'Name must not contain control characters'),
    )
    .meta({ description: 'The display name (1–100 characters).', override: { type: 'string' } });

/** A password being checked (sign-in, the current password): any length up to the cap. */
export const passwordField = (label = 'Password') =>
  text(label)
    .min(1, `${label} is required`)
    .max(MAX_PASSWORD_LENGTH, `${label} must be at most ${MAX_PASSWORD_LENGTH} characters`);

/** A password being chosen (register, change, reset): the rule of password-policy.ts. */
export const newPasswordField = (label = 'Password') =>
  text(label)
    .min(1, `${label} is required`)
    .min(MIN_PASSWORD_LENGTH, passwordTooShort(label))
    .max(MAX_PASSWORD_LENGTH, `${label} must be at most ${MAX_PASSWORD_LENGTH} characters`)
    .refine((v) => !isCommonPassword(v), passwordTooCommon(label))
    .meta({
      description: `At least ${MIN_PASSWORD_LENGTH} characters, not one of the most common passwords.`,
    });

/** The secret of a link sent by e-mail (its format is checked by the service: a bad one is just an invalid link). */
export const linkTokenField = () =>
  text('token')
    .max(512, 'token must be at most 512 characters')
    .meta({ description: 'The token from the link.' });

export const instructionsField = () =>
  text('default_instructions').max(
    MAX_INSTRUCTIONS_LENGTH,
    `default_instructions must be at most ${MAX_INSTRUCTIONS_LENGTH} characters`,
  );

export const destinationField = () =>
  text('default_destination')
    .refine(
      (v) => (DESTINATIONS as readonly string[]).includes(v),
      `default_destination must be one of ${DESTINATIONS.join(', ')}`,
    )
    .transform((v) => v as Destination)
    .meta({ override: { type: 'string', enum: [...DESTINATIONS] } });

/** ?limit / ?offset: digits only, within bounds (the two messages the hand-written parser gave). */
export const pageNumber = (name: string, options: { min: number; max: number; default: number }) =>
  z
    .unknown()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return options.default;
      if (typeof v !== 'string' || !/^\d{1,9}$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number` });
        return z.NEVER;
      }
      const n = Number(v);
      if (n < options.min || n > options.max) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be between ${options.min} and ${options.max}`,
        });
        return z.NEVER;
      }
      return n;
    })
    .meta({
      override: { type: 'integer', minimum: options.min, maximum: options.max, default: options.default },
    });
