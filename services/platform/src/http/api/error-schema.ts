// The one error body every operation answers with (see error-handler.ts), as a schema for the
// OpenAPI document and the response check.
import * as z from 'zod';

export const errorBodySchema = z
  .object({
    error: z.string().meta({ description: 'Same text as message (older clients read `error`).' }),
    message: z.string().meta({ description: 'What went wrong, written for the person using the product.' }),
    code: z.string().meta({ description: 'The error class, for programs: InputError, NotFoundError…' }),
    requestId: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'Error' });

/** What each shared error status means, for the document. */
export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid: the message says which field and why.',
  401: 'Not signed in, or the session has expired.',
  403: 'Signed in but not allowed (or the CSRF rule was not met).',
  404: 'Not found, or not yours (the two are indistinguishable).',
  409: 'Conflicts with the current state.',
  413: 'The body or file is larger than allowed.',
  415: 'The body is not in a type this operation takes.',
  422: 'The content cannot be processed.',
  429: 'Too many attempts: wait for Retry-After seconds.',
  503: 'An engine this operation needs is not answering; try again shortly.',
};
