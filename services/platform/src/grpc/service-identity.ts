// Zero trust between services: mutual TLS on every gRPC connection, and authorisation per call and
// per method. Each target's certificate (a Secret, or cert-manager in the Helm chart) carries its
// identity as a URI SAN `spiffe://kaboodle/<target>`; the server reads the caller's identity from the
// verified client certificate on every call and checks it against the method's declared callers.
// Certificates are re-read from their files (cert-manager renews them in place) without a restart.
import type { PeerCertificate } from 'node:tls';
import { experimental } from '@grpc/grpc-js';
import type { ChannelCredentials, ServerCredentials } from '@grpc/grpc-js';

export const IDENTITY_PREFIX = 'spiffe://kaboodle/';

/** Any authenticated service may call (grpc.health.v1). */
export const ANY_SERVICE = '*';

/**
 * Which services may call which method of a gRPC service: proto method name (`ListForIndex`) or `*`
 * for every method, to the identities allowed (`search`) or ANY_SERVICE. A method not listed is
 * refused to every caller once identities are enforced (deny by default).
 */
export type GrpcCallers = Readonly<Record<string, readonly string[]>>;

export interface GrpcTlsFiles {
  certFile: string;
  keyFile: string;
  /** The CA that signs every Kaboodle service certificate (trusted for clients and servers). */
  caFile: string;
  /** How often the files are re-read (default 60 s). */
  refreshIntervalMs?: number;
}

function provider(files: GrpcTlsFiles) {
  return new experimental.FileWatcherCertificateProvider({
    certificateFile: files.certFile,
    privateKeyFile: files.keyFile,
    caCertificateFile: files.caFile,
    refreshIntervalMs: files.refreshIntervalMs ?? 60_000,
  });
}

/** Server side: TLS with this service's certificate, and a client certificate from the CA required. */
export function grpcServerTls(files: GrpcTlsFiles): ServerCredentials {
  const certificates = provider(files);
  return experimental.createCertificateProviderServerCredentials(certificates, certificates, true);
}

/** Client side: verifies the server against the CA and presents this service's certificate. */
export function grpcClientTls(files: GrpcTlsFiles): ChannelCredentials {
  const certificates = provider(files);
  return experimental.createCertificateProviderChannelCredentials(certificates, certificates);
}

/** The service identity (`search`) in a verified peer certificate, or undefined. */
export function identityOf(certificate: PeerCertificate | undefined): string | undefined {
  const sans = certificate?.subjectaltname ?? '';
  for (const entry of sans.split(',')) {
    const value = entry.trim();
    if (!value.startsWith('URI:')) continue;
    const uri = value.slice(4);
    if (uri.startsWith(IDENTITY_PREFIX)) {
      const name = uri.slice(IDENTITY_PREFIX.length);
      if (/^[a-z][a-z0-9-]{0,62}$/.test(name)) return name;
    }
  }
  return undefined;
}

/** Whether `identity` may call `method` under `callers` (deny by default). */
export function mayCall(callers: GrpcCallers | undefined, method: string, identity: string): boolean {
  const allowed = callers?.[method] ?? callers?.['*'] ?? [];
  return allowed.includes(identity) || allowed.includes(ANY_SERVICE);
}
