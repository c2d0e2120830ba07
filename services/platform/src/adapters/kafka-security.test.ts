// Kafka authentication options: TLS material read from files, SCRAM and OAUTHBEARER mapped to kafkajs,
// the OAuth client-credentials token fetched from a real (local) token endpoint and reused until
// shortly before it expires, and every missing setting named.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, kafkaSecurity, kafkaSecurityProblems } from './kafka-security.ts';

describe('kafka security options', () => {
  it('maps SCRAM to kafkajs and turns TLS on with the CA from its file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kafka-ca-'));
    try {
      writeFileSync(
        path.join(dir, 'ca.crt'),
        '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      );
      const out = kafkaSecurity({
        KAFKA_TLS_CA_FILE: path.join(dir, 'ca.crt'),
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'kb-kaboodle-search',
        KAFKA_SASL_PASSWORD: 's3cret',
      });
      expect(out.ssl).toEqual({ ca: ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'] });
      expect(out.sasl).toEqual({
        mechanism: 'scram-sha-512',
        username: 'kb-kaboodle-search',
        password: 's3cret',
      });
      expect(kafkaSecurity({})).toEqual({});
      expect(kafkaSecurity({ KAFKA_TLS: true }).ssl).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names every setting a mechanism needs', () => {
    expect(kafkaSecurityProblems({ KAFKA_SASL_MECHANISM: 'scram-sha-256' })).toEqual([
      'KAFKA_SASL_USERNAME: is required with KAFKA_SASL_MECHANISM=scram-sha-256',
      'KAFKA_SASL_PASSWORD: is required with KAFKA_SASL_MECHANISM=scram-sha-256',
    ]);
    expect(kafkaSecurityProblems({ KAFKA_SASL_MECHANISM: 'oauthbearer' })).toHaveLength(3);
    expect(kafkaSecurityProblems({ KAFKA_TLS_KEY_FILE: '/k' })).toEqual([
      'KAFKA_TLS_CERT_FILE: is required with KAFKA_TLS_KEY_FILE (a client certificate)',
    ]);
  });
});

describe('OAUTHBEARER client-credentials token', () => {
  let server: http.Server;
  let url: string;
  const seen: Array<{ auth: string; body: string }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization ?? '', body });
        if (req.headers.authorization !== `Basic ${Buffer.from('kaboodle:pw').toString('base64')}`) {
          res.writeHead(401).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: `token-${seen.length}`, expires_in: 300 }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('asks once, reuses the token until a minute before it expires, then asks again', async () => {
    let now = 1_000_000;
    const provider = clientCredentialsToken(
      { tokenUrl: url, clientId: 'kaboodle', clientSecret: 'pw', scope: 'kafka' },
      fetch,
      () => now,
    );
    const [a, b] = await Promise.all([provider(), provider()]);
    expect(a).toEqual({ value: 'token-1' });
    expect(b).toEqual({ value: 'token-1' });
    expect(seen).toHaveLength(1);
    expect(new URLSearchParams(seen[0]!.body).get('grant_type')).toBe('client_credentials');
    expect(new URLSearchParams(seen[0]!.body).get('scope')).toBe('kafka');
    now += 230_000;
    expect(await provider()).toEqual({ value: 'token-1' });
    now += 20_000; // within the last minute
    expect(await provider()).toEqual({ value: 'token-2' });
  });

  it('fails clearly when the endpoint refuses the client', async () => {
    const provider = clientCredentialsToken({ tokenUrl: url, clientId: 'kaboodle', clientSecret: 'wrong' });
    await expect(provider()).rejects.toThrow('kafka OAUTHBEARER: the token endpoint answered 401');
  });
});
