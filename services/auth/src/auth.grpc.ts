// The auth service over gRPC (kaboodle.auth.v1.AuthService) for services in other processes:
// the key set, token verification with the server-side revocation check, and user lookup.
// Internal only: the gRPC port is for Kaboodle services, never exposed through the ingress.
import { AuthService, timestampFromDate } from '@kaboodle/proto';
import { AuthenticationError, InputError, NotFoundError, implementGrpcService } from '@kaboodle/platform';
import type { GrpcServiceRegistration, TokenVerifier } from '@kaboodle/platform';
import type { KeyStore } from './key-store.service.ts';
import type { UserRecord, UserRepository } from './user.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const grpcUser = (u: UserRecord) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  displayName: u.name,
  roles: [u.role],
  createdAt: timestampFromDate(u.createdAt),
});

export function createAuthGrpc(deps: {
  keys: KeyStore;
  verifier: TokenVerifier;
  users: UserRepository;
}): GrpcServiceRegistration {
  return implementGrpcService(AuthService, {
    async getJwks() {
      const { keys } = await deps.keys.jwks();
      return {
        keys: keys.map((k) => ({
          kty: str(k.kty),
          kid: str(k.kid),
          alg: str(k.alg),
          use: str(k.use),
          crv: str(k.crv),
          x: str(k.x),
          y: str(k.y),
          n: str(k.n),
          e: str(k.e),
        })),
      };
    },
    async verifyToken(request) {
      const verified = await deps.verifier.verify(request.token);
      const user = await deps.users.findById(verified.id);
      if (!user) throw new AuthenticationError('Session expired');
      return {
        user: grpcUser(user),
        sessionId: verified.sessionId,
        expiresAt: timestampFromDate(verified.expiresAt),
      };
    },
    async getUser(request) {
      if (!request.userId) throw new InputError('user_id is required');
      const user = UUID.test(request.userId) ? await deps.users.findById(request.userId) : null;
      if (!user) throw new NotFoundError('User not found');
      return { user: grpcUser(user) };
    },
  });
}
