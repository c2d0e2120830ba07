// Field schemas many operations share, with the messages people read when a value is refused.
import * as z from 'zod';

const named = (iss: { path?: PropertyKey[] }) => (iss.path ?? []).map(String).join('.') || 'The value';

/**
 * A whole number in a query string (`?page=2`), between min and max. An empty value means the
 * default; anything else (text, fractions, repeats) is "page must be a whole number between 1 and …".
 */
export function wholeNumberQuery(options: { min: number; max: number; default: number }): z.ZodType<number>;
export function wholeNumberQuery(options: { min: number; max: number }): z.ZodType<number | undefined>;
export function wholeNumberQuery(options: { min: number; max: number; default?: number }): z.ZodType {
  const message = (iss: { path?: PropertyKey[] }) =>
    `${named(iss)} must be a whole number between ${options.min} and ${options.max}`;
  const schema = z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: message })
      .int({ error: message })
      .min(options.min, { error: message })
      .max(options.max, { error: message })
      .optional(),
  );
  if (options.default === undefined) return schema;
  const fallback = options.default;
  return schema.transform((v) => v ?? fallback).meta({ default: fallback });
}
