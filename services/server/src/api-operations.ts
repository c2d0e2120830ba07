// Every service's HTTP operations, for the OpenAPI document the web target publishes (in a cluster
// the ingress sends /api/openapi.json and /api/docs to web, which runs none of the services). Each
// list is the declarations alone: importing them starts nothing.
import type { OperationSpec } from '@kaboodle/platform';
import { ingestionOperations } from '@kaboodle/ingestion';

export const ALL_OPERATIONS: readonly OperationSpec[] = [...ingestionOperations];

export const API_DESCRIPTION = [
  'Every call of the Kaboodle API, generated from the schemas that validate it.',
  '',
  'Sign in with `POST /api/auth/login` (or register) and send the returned `token` as',
  '`Authorization: Bearer …`, or use the browser session cookie; state-changing calls send',
  '`X-Requested-With: XMLHttpRequest`. Every refusal answers `{error, message, code}` with a message',
  'written for the person using the product.',
].join('\n');
