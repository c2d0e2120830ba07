// TEST ONLY: a locally generated RSA key set standing in for Google's sign-in keys, served from a
// loopback HTTP server, with a minter for ID tokens shaped like Google's. Nothing reaches Google.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWK } from 'jose';

export interface StandInIdTokenClaims {
  sub?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  aud?: string;
  iss?: string;
  /** Seconds since the epoch. */
  exp?: number;
  iat?: number;
}

export interface GoogleKeySetStandIn {
  /** Where the stand-in JWKS is served (use as GOOGLE_JWKS_URL). */
  jwksUrl: string;
  /** How many times the JWKS was fetched. */
  readonly fetches: number;
  /** An RS256 ID token signed by the stand-in key (or by `signWith`, e.g. a forger's key). */
  mint(claims?: StandInIdTokenClaims, signWith?: { key: CryptoKey; kid: string }): Promise<string>;
  /** A second key pair that is NOT published: tokens signed with it must be refused. */
  forgerKey(): Promise<{ key: CryptoKey; kid: string }>;
  close(): Promise<void>;
}

export async function startGoogleKeySetStandIn(clientId: string): Promise<GoogleKeySetStandIn> {
  const kid = 'stand-in-google-key-1';
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  let fetches = 0;
  const server = createServer((req, res) => {
    if (req.url !== '/oauth2/v3/certs') {
      res.writeHead(404).end();
      return;
    }
    fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const now = () => Math.floor(Date.now() / 1000);

  return {
    jwksUrl: `http://127.0.0.1:${port}/oauth2/v3/certs`,
    get fetches() {
      return fetches;
    },
    async mint(claims = {}, signWith) {
      const payload = {
        iss: 'https://accounts.google.com',
        aud: clientId,
        sub: '110169484474386276334',
        email: 'grace@example.com',
        email_verified: true,
        name: 'Grace Hopper',
        iat: now(),
        exp: now() + 3600,
        ...claims,
      };
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', kid: signWith?.kid ?? kid, typ: 'JWT' })
        .sign(signWith?.key ?? privateKey);
    },
    async forgerKey() {
      const forged = await generateKeyPair('RS256');
      return { key: forged.privateKey, kid };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
