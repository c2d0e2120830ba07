// How Kaboodle authenticates to Kafka: TLS (a private CA, optionally a client certificate) and SASL
// (SCRAM-SHA-256/512, PLAIN, or OAUTHBEARER with an OAuth 2 client-credentials token that is fetched
// and renewed before it expires), read from the KAFKA_* keys and handed to kafkajs.
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { SASLOptions } from 'kafkajs';

export type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512' | 'oauthbearer';

export interface KafkaSecurityConfig {
  KAFKA_TLS?: boolean | undefined;
  KAFKA_TLS_CA_FILE?: string | undefined;
  KAFKA_TLS_CERT_FILE?: string | undefined;
  KAFKA_TLS_KEY_FILE?: string | undefined;
  KAFKA_SASL_MECHANISM?: SaslMechanism | undefined;
  KAFKA_SASL_USERNAME?: string | undefined;
  KAFKA_SASL_PASSWORD?: string | undefined;
  KAFKA_SASL_OAUTHBEARER_TOKEN_URL?: string | undefined;
  KAFKA_SASL_OAUTHBEARER_CLIENT_ID?: string | undefined;
  KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET?: string | undefined;
  KAFKA_SASL_OAUTHBEARER_SCOPE?: string | undefined;
}

export interface KafkaSecurity {
  ssl?: boolean | ConnectionOptions;
  sasl?: SASLOptions;
}

/** kafkajs' `ssl` and `sasl` options for a configuration (none: plaintext, as on one machine). */
export function kafkaSecurity(config: KafkaSecurityConfig, fetchImpl: typeof fetch = fetch): KafkaSecurity {
  const out: KafkaSecurity = {};
  const tlsFiles = config.KAFKA_TLS_CA_FILE || config.KAFKA_TLS_CERT_FILE;
  if (config.KAFKA_TLS || tlsFiles) {
    out.ssl = tlsFiles
      ? {
          ...(config.KAFKA_TLS_CA_FILE && { ca: [readFileSync(config.KAFKA_TLS_CA_FILE, 'utf8')] }),
          ...(config.KAFKA_TLS_CERT_FILE && { cert: readFileSync(config.KAFKA_TLS_CERT_FILE, 'utf8') }),
          ...(config.KAFKA_TLS_KEY_FILE && { key: readFileSync(config.KAFKA_TLS_KEY_FILE, 'utf8') }),
        }
      : true;
  }
  const mechanism = config.KAFKA_SASL_MECHANISM;
  if (mechanism === 'oauthbearer') {
    out.sasl = {
      mechanism: 'oauthbearer',
      oauthBearerProvider: clientCredentialsToken(
        {
          tokenUrl: config.KAFKA_SASL_OAUTHBEARER_TOKEN_URL!,
          clientId: config.KAFKA_SASL_OAUTHBEARER_CLIENT_ID!,
          clientSecret: config.KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET!,
          ...(config.KAFKA_SASL_OAUTHBEARER_SCOPE && { scope: config.KAFKA_SASL_OAUTHBEARER_SCOPE }),
        },
        fetchImpl,
      ),
    };
  } else if (mechanism) {
    out.sasl = {
      mechanism,
      username: config.KAFKA_SASL_USERNAME ?? '',
      password: config.KAFKA_SASL_PASSWORD ?? '',
    } as SASLOptions;
  }
  return out;
}

/** Problems with the KAFKA_* security keys, for the config's validate step. */
export function kafkaSecurityProblems(c: KafkaSecurityConfig): string[] {
  const problems: string[] = [];
  if (c.KAFKA_SASL_MECHANISM && c.KAFKA_SASL_MECHANISM !== 'oauthbearer') {
    if (!c.KAFKA_SASL_USERNAME)
      problems.push(`KAFKA_SASL_USERNAME: is required with KAFKA_SASL_MECHANISM=${c.KAFKA_SASL_MECHANISM}`);
    if (!c.KAFKA_SASL_PASSWORD)
      problems.push(`KAFKA_SASL_PASSWORD: is required with KAFKA_SASL_MECHANISM=${c.KAFKA_SASL_MECHANISM}`);
  }
  if (c.KAFKA_SASL_MECHANISM === 'oauthbearer') {
    for (const key of [
      'KAFKA_SASL_OAUTHBEARER_TOKEN_URL',
      'KAFKA_SASL_OAUTHBEARER_CLIENT_ID',
      'KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET',
    ] as const)
      if (!c[key]) problems.push(`${key}: is required with KAFKA_SASL_MECHANISM=oauthbearer`);
  }
  if (c.KAFKA_TLS_KEY_FILE && !c.KAFKA_TLS_CERT_FILE)
    problems.push('KAFKA_TLS_CERT_FILE: is required with KAFKA_TLS_KEY_FILE (a client certificate)');
  return problems;
}

interface ClientCredentials {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
}

/**
 * An OAUTHBEARER token provider: the OAuth 2 client-credentials grant, the token reused until a
 * minute before it expires (kafkajs asks on every connection and re-authentication).
 */
export function clientCredentialsToken(
  credentials: ClientCredentials,
  fetchImpl: typeof fetch = fetch,
  now: () => number = Date.now,
): () => Promise<{ value: string }> {
  let cached: { value: string; renewAt: number } | undefined;
  let pending: Promise<{ value: string }> | undefined;
  return async () => {
    if (cached && now() < cached.renewAt) return { value: cached.value };
    pending ??= (async () => {
      const body = new URLSearchParams({ grant_type: 'client_credentials' });
      if (credentials.scope) body.set('scope', credentials.scope);
      const res = await fetchImpl(credentials.tokenUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`).toString('base64')}`,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`kafka OAUTHBEARER: the token endpoint answered ${res.status}`);
      const token = (await res.json()) as { access_token?: string; expires_in?: number };
      if (!token.access_token) throw new Error('kafka OAUTHBEARER: the token endpoint sent no access_token');
      const lifetimeMs = (token.expires_in ?? 300) * 1000;
      cached = { value: token.access_token, renewAt: now() + Math.max(lifetimeMs - 60_000, lifetimeMs / 2) };
      return { value: token.access_token };
    })().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
