// The campaign's two people and their sessions. Registration and sign-in are the fuzzer's own
// housekeeping (fixed calls, sent from other loopback addresses than the cases so the per-IP sign-in
// limits the cases run into never lock the fuzzer out). A session that a case ends (a fuzzed logout,
// an e-mail change) is renewed: by signing in again, else as a fresh identity for the same person,
// whose earlier identities stay on the list of secrets the other person must never see.
import { randomBytes, randomUUID } from 'node:crypto';
import { exchange } from './wire.ts';
import type { WireResponse } from './wire.ts';

export type Person = 'alice' | 'bob';
export const PEOPLE: readonly Person[] = ['alice', 'bob'];

export interface Identity {
  email: string;
  password: string;
  userId: string;
}

export interface Session {
  token: string;
  /** Cookie name → value from the last sign-in (kaboodle_access, kaboodle_session, kaboodle_csrf). */
  cookies: Map<string, string>;
  issuedAt: number;
}

export interface HostPort {
  host: string;
  port: number;
}

const JSON_HEADERS: Array<[string, string]> = [
  ['Content-Type', 'application/json'],
  ['X-Requested-With', 'XMLHttpRequest'],
];

function cookiesOf(res: WireResponse): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of (res.headers['set-cookie'] ?? '').split('\n')) {
    const m = /^([^=;\s]+)=([^;]*)/.exec(line);
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

function jsonOf(res: WireResponse): Record<string, unknown> {
  try {
    return JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export interface AccountsOptions {
  auth: HostPort;
  /** Access-token lifetime the target runs with: sessions are renewed well before it. */
  tokenTtlMs: number;
  /** A marker in every e-mail, so a run's accounts can be told apart. */
  runTag: string;
}

export class Accounts {
  private readonly identities = new Map<Person, Identity[]>();
  private readonly sessions = new Map<Person, Session>();
  private readonly renewing = new Map<Person, Promise<Session>>();
  /** Sessions signed out on purpose (revoked tokens), and the first tokens (expired once the TTL passes). */
  readonly revokedTokens: string[] = [];
  private readonly firstTokens: Array<{ token: string; issuedAt: number }> = [];
  private nextAddress = 0;

  private readonly options: AccountsOptions;

  constructor(options: AccountsOptions) {
    this.options = options;
  }

  /** 127.0.0.2 … 127.0.0.31 in turn: loopback addresses other than the cases' 127.0.0.1. */
  private address(): string {
    this.nextAddress = (this.nextAddress + 1) % 30;
    return `127.0.0.${this.nextAddress + 2}`;
  }

  private async call(
    path: string,
    body: unknown,
    extra: Array<[string, string]> = [],
  ): Promise<WireResponse> {
    for (let attempt = 0; ; attempt++) {
      const res = await exchange(this.options.auth, {
        method: 'POST',
        path,
        headers: [...JSON_HEADERS, ...extra],
        body: Buffer.from(JSON.stringify(body)),
        localAddress: this.address(),
        timeoutMs: 30_000,
      });
      if (res.status !== 429 || attempt >= 40) return res;
      await new Promise((r) => setTimeout(r, 1500));
    }
  }

  private remember(person: Person, res: WireResponse): Session {
    const body = jsonOf(res);
    const token = body.token;
    if (typeof token !== 'string')
      throw new Error(`no token in ${res.status} ${res.body.toString('utf8').slice(0, 300)}`);
    const session = { token, cookies: cookiesOf(res), issuedAt: Date.now() };
    this.sessions.set(person, session);
    this.firstTokens.push({ token, issuedAt: session.issuedAt });
    return session;
  }

  private async register(person: Person): Promise<Session> {
    const identity: Identity = {
      email: `fuzz-${person}-${this.options.runTag}-${randomUUID().slice(0, 8)}@example.com`,
      password: `fuzz ${randomBytes(12).toString('base64url')} passphrase`,
      userId: '',
    };
    const res = await this.call('/api/auth/register', {
      email: identity.email,
      password: identity.password,
      name: `Fuzz ${person}`,
    });
    if (res.status !== 201)
      throw new Error(`registering ${person}: ${res.status} ${res.body.toString('utf8').slice(0, 300)}`);
    const user = jsonOf(res).user as { id?: string } | undefined;
    identity.userId = String(user?.id ?? '');
    this.identities.set(person, [...(this.identities.get(person) ?? []), identity]);
    return this.remember(person, res);
  }

  private async login(person: Person): Promise<Session | undefined> {
    const identity = this.identities.get(person)?.at(-1);
    if (!identity) return undefined;
    const res = await this.call('/api/auth/login', { email: identity.email, password: identity.password });
    return res.status === 200 ? this.remember(person, res) : undefined;
  }

  async setUp(): Promise<void> {
    for (const person of PEOPLE) await this.register(person);
    // A session signed out at once: its token is a real, well-signed, revoked one.
    for (const person of PEOPLE) {
      const spare = await this.login(person);
      const keep = await this.login(person);
      if (!spare || !keep) throw new Error(`signing ${person} in`);
      const out = await exchange(this.options.auth, {
        method: 'POST',
        path: '/api/auth/logout',
        headers: [...JSON_HEADERS, ['Authorization', `Bearer ${spare.token}`]],
        localAddress: this.address(),
      });
      if (out.status === 200) this.revokedTokens.push(spare.token);
    }
  }

  /** The person's current session, renewed first when it is near its end. */
  async session(person: Person): Promise<Session> {
    const current = this.sessions.get(person);
    if (current && Date.now() - current.issuedAt < this.options.tokenTtlMs * 0.6) return current;
    return this.renew(person);
  }

  /** A case answered 401 to a token that should be good: sign in again (once at a time per person). */
  renew(person: Person, staleToken?: string): Promise<Session> {
    const current = this.sessions.get(person);
    if (staleToken && current && current.token !== staleToken) return Promise.resolve(current);
    let pending = this.renewing.get(person);
    if (!pending) {
      pending = (async () => (await this.login(person)) ?? (await this.register(person)))().finally(() =>
        this.renewing.delete(person),
      );
      this.renewing.set(person, pending);
    }
    return pending;
  }

  current(person: Person): Session | undefined {
    return this.sessions.get(person);
  }

  /** Every identity the person has had (the other person must never see any of them). */
  identitiesOf(person: Person): readonly Identity[] {
    return this.identities.get(person) ?? [];
  }

  /** A genuinely expired token (issued by the target, older than its lifetime plus the verifier's 30 s tolerance). */
  expiredToken(): string | undefined {
    const limit = Date.now() - this.options.tokenTtlMs - 35_000;
    return this.firstTokens.find((t) => t.issuedAt < limit)?.token;
  }
}
