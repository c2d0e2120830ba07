export { createHttpServer } from './http-server.ts';
export type { HttpServer, HttpServerOptions } from './http-server.ts';
export { listen } from './listen.ts';
export type { ListenOptions, RunningServer } from './listen.ts';
export { errorHandler, notFoundHandler, toHttpError } from './error-handler.ts';
export type { ErrorBody, HttpErrorResponse } from './error-handler.ts';
export { checkReadiness } from './health.routes.ts';
export type { CheckResult, ReadinessReport } from './health.routes.ts';
export { REQUEST_ID_HEADER, isValidRequestId } from './request-context.ts';
