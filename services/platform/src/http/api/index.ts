// The API contract kit: declare operations with zod schemas, bind typed handlers, publish OpenAPI.
export { defineOperation, errorStatuses, expressPath } from './operation.ts';
export type {
  BodyOf,
  HttpMethod,
  OperationSpec,
  ParamsOf,
  QueryOf,
  RequestBodySpec,
  ResponseSpec,
  ResponsesOf,
  Security,
} from './operation.ts';
export {
  API_OPERATION,
  createApiRouter,
  requireAdminClaim,
  RESPONSE_CHECK_LOCAL,
  validateInput,
} from './api-router.ts';
export type {
  ApiRouter,
  ApiRouterOptions,
  HandlerContext,
  OperationHandler,
  ResponseCheck,
} from './api-router.ts';
export { buildOpenApiDocument } from './openapi-document.ts';
export type { DocumentInfo, OpenApiDocument } from './openapi-document.ts';
export { apiDocsOperations, createApiDocsRouter } from './api-docs.routes.ts';
export { errorBodySchema } from './error-schema.ts';
export { formatIssue } from './issues.ts';
export { wholeNumberQuery } from './fields.ts';
