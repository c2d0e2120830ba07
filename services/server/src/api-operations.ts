// Every service's HTTP operations, for the OpenAPI document the web target publishes (in a cluster
// the ingress sends /api/openapi.json and /api/docs to web, which runs none of the services) and for
// the frontends' generated API types (npm run generate:api). Each list is the declarations alone:
// importing them starts nothing.
import { apiDocsOperations, buildOpenApiDocument, healthOperations } from '@kaboodle/platform';
import type { OperationSpec } from '@kaboodle/platform';
import { authOperations } from '@kaboodle/auth';
import { catalogueOperations } from '@kaboodle/catalogue';
import { ingestionOperations } from '@kaboodle/ingestion';
// Search's declarations through its "./api" entry: its package index would load the index engines
// (LanceDB) into the web target, which publishes this list.
import { searchOperations } from '@kaboodle/search/api';

export const ALL_OPERATIONS: readonly OperationSpec[] = [
  ...healthOperations,
  ...authOperations,
  ...ingestionOperations,
  ...catalogueOperations,
  ...searchOperations,
];

export const API_DESCRIPTION = [
  'Every call of the Kaboodle API, generated from the schemas that validate it.',
  '',
  'Sign in with `POST /api/auth/login` (or register) and send the returned `token` as',
  '`Authorization: Bearer …`, or use the browser session cookie; state-changing calls send',
  '`X-Requested-With: XMLHttpRequest`. Every refusal answers `{error, message, code}` with a message',
  'written for the person using the product.',
].join('\n');

/** The document the web target serves (its version aside, which the types do not carry). */
export function mergedDocument() {
  return buildOpenApiDocument([...apiDocsOperations, ...ALL_OPERATIONS], {
    title: 'Kaboodle API',
    version: 'generated',
    description: API_DESCRIPTION,
  });
}
