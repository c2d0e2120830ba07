// The gRPC kit: service definitions from protobuf-es descriptors, a server with grpc.health.v1,
// tracing, logging and error mapping, and a typed client with deadlines and retries.
export {
  grpcMethodPath,
  implementGrpcService,
  toGrpcMethodDefinition,
  toGrpcServiceDefinition,
} from './service-definition.ts';
export type { GrpcCallContext, GrpcHandler, GrpcServiceImplementation } from './service-definition.ts';
export { createGrpcServer } from './grpc-server.ts';
export type { GrpcServer, GrpcServerOptions } from './grpc-server.ts';
export { checkGrpcHealth, createGrpcClient, grpcHealthCheck } from './grpc-client.ts';
export type {
  GrpcCallOptions,
  GrpcClient,
  GrpcClientOptions,
  GrpcHealthCheckOptions,
  GrpcRetryOptions,
} from './grpc-client.ts';
export { createGrpcHealth, ServingStatus } from './health.service.ts';
export type { GrpcHealth, GrpcHealthOptions } from './health.service.ts';
export {
  ERROR_CLASS_KEY,
  ERROR_DETAILS_KEY,
  fromGrpcStatus,
  GrpcStatusError,
  grpcCodeName,
  toGrpcStatus,
  toServiceError,
} from './grpc-status.ts';
export type { GrpcStatusMapping } from './grpc-status.ts';
export { extractTraceMetadata, injectTraceMetadata } from './trace-metadata.ts';
export {
  ANY_SERVICE,
  IDENTITY_PREFIX,
  grpcClientTls,
  grpcServerTls,
  identityOf,
  mayCall,
} from './service-identity.ts';
export type { GrpcCallers, GrpcTlsFiles } from './service-identity.ts';
export type { ChannelCredentials } from '@grpc/grpc-js';
