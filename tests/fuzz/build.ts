// Turns a plan into the exact bytes of one request: the caller's credentials (good, forged, expired,
// revoked, or cookie-borne without the CSRF rule), the path with ids resolved against what each person
// owns, the query, and the body (JSON, multipart, or one of the hostile variants of either), and for
// protocol cases the HTTP framing itself bent.
import { createHmac, randomBytes } from 'node:crypto';
import type { Accounts, Person } from './accounts.ts';
import { fillPath } from './openapi.ts';
import type { FuzzOperation } from './openapi.ts';
import type { BadToken, BodyPlan, Caller, PathValue, Plan } from './plans.ts';
import { fileBytes } from './small-files.ts';
import { asText, hostileJson, hostileMultipart, multipartBody } from './hostile-bodies.ts';
import { bendProtocol } from './hostile-http.ts';
import type { WireRequest } from './wire.ts';

export interface BuildState {
  accounts: Accounts;
  /** Ids each person's answers named (fodder for own-id cases), canaries excluded. */
  ownIds(person: Person): readonly string[];
  /** Ids the other person may never reach: their canaries and everything else they own. */
  foreignIds(person: Person): readonly string[];
  marker(person: Person): string;
  /** The target's public signing keys (for the HS256-with-the-public-key forgery). */
  jwks: unknown;
}

export const other = (p: Person): Person => (p === 'alice' ? 'bob' : 'alice');

const b64url = (v: unknown) =>
  Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

function decodeJwt(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
} {
  const [h = '', p = '', s = ''] = token.split('.');
  const parse = (x: string) => {
    try {
      return JSON.parse(Buffer.from(x, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  return { header: parse(h), payload: parse(p), signature: s };
}

function badAuthorization(kind: BadToken, person: Person, state: BuildState): Array<[string, string]> {
  const token = state.accounts.current(person)?.token ?? '';
  const { header, payload, signature } = decodeJwt(token);
  const otherId = state.accounts.identitiesOf(other(person)).at(-1)?.userId ?? 'someone-else';
  const bearer = (t: string): Array<[string, string]> => [['Authorization', `Bearer ${t}`]];
  switch (kind) {
    case 'none':
      return [];
    case 'empty-bearer':
      return [['Authorization', 'Bearer ']];
    case 'basic':
      return [['Authorization', `Basic ${Buffer.from('alice:secret').toString('base64')}`]];
    case 'garbage':
      return bearer(randomBytes(48).toString('base64url'));
    case 'forged-signature': {
      const flipped = signature.slice(0, -6) + (signature.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA');
      return bearer(`${token.split('.').slice(0, 2).join('.')}.${flipped}`);
    }
    case 'swapped-subject':
      return bearer(`${b64url(header)}.${b64url({ ...payload, sub: otherId })}.${signature}`);
    case 'alg-none':
      return bearer(
        `${b64url({ ...header, alg: 'none' })}.${b64url({ ...payload, sub: otherId, exp: 4102444800 })}.`,
      );
    case 'hs256-with-public-key': {
      const h = b64url({ ...header, alg: 'HS256' });
      const p = b64url({ ...payload, sub: otherId, exp: 4102444800 });
      const key = JSON.stringify(state.jwks);
      return bearer(`${h}.${p}.${createHmac('sha256', key).update(`${h}.${p}`).digest('base64url')}`);
    }
    case 'expired':
      // a real one once the first tokens are old enough; until then, one whose exp was edited
      return bearer(
        state.accounts.expiredToken() ??
          `${b64url(header)}.${b64url({ ...payload, exp: 1_000_000_000 })}.${signature}`,
      );
    case 'revoked':
      return bearer(state.accounts.revokedTokens[0] ?? token.slice(0, -2));
    case 'oversized':
      return bearer(`${token}${'A'.repeat(12_000)}`);
  }
}

function credentials(caller: Caller, state: BuildState): Array<[string, string]> {
  const xrw: [string, string] = ['X-Requested-With', 'XMLHttpRequest'];
  if (caller.kind === 'bad-token') return [xrw, ...badAuthorization(caller.token, caller.person, state)];
  const session = state.accounts.current(caller.person);
  const token = session?.token ?? '';
  const csrf = session?.cookies.get('kaboodle_csrf') ?? randomBytes(16).toString('base64url');
  const cookie: [string, string] = ['Cookie', `kaboodle_access=${token}; kaboodle_csrf=${csrf}`];
  if (caller.kind === 'person')
    return caller.via === 'bearer'
      ? [xrw, ['Authorization', `Bearer ${token}`]]
      : [xrw, cookie, ['X-CSRF-Token', csrf]];
  switch (caller.variant) {
    case 'no-x-requested-with':
      return [cookie, ['X-CSRF-Token', csrf]];
    case 'no-csrf-token':
      return [xrw, cookie];
    case 'wrong-csrf-token':
      return [xrw, cookie, ['X-CSRF-Token', `${csrf}x`]];
    case 'foreign-origin':
      return [xrw, cookie, ['X-CSRF-Token', csrf], ['Origin', 'https://evil.example']];
  }
}

function pathSegment(v: PathValue, person: Person, state: BuildState): string {
  if (v.kind === 'raw') return v.segment;
  if (v.kind === 'value') return encodeURIComponent(asText(v.value));
  const pool = v.from === 'own' ? state.ownIds(person) : v.from === 'other' ? state.foreignIds(person) : [];
  return encodeURIComponent(pool.length ? pool[v.pick % pool.length]! : `${randomBytes(8).toString('hex')}`);
}

function queryString(entries: Array<[string, unknown]>): string {
  const parts: string[] = [];
  for (const [k, v] of entries) {
    const values = Array.isArray(v) ? v : [v];
    for (const one of values) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(asText(one))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

// ------------------------------------------------------------------ the request

export interface Built {
  request: WireRequest;
  /** The person whose credentials it carries (undefined: none of theirs). */
  as?: Person;
  /** Ids of the other person this request carries on purpose (they may be echoed back). */
  carried: string[];
}

export function buildRequest(plan: Plan, op: FuzzOperation, state: BuildState, host: string): Built {
  const person = plan.caller.person;
  const segments: Record<string, string> = {};
  for (const [name, v] of Object.entries(plan.path)) segments[name] = pathSegment(v, person, state);
  const path = fillPath(op.path, segments) + queryString(plan.query);
  const headers = credentials(plan.caller, state);
  let request: WireRequest = { method: op.method, path, headers, timeoutMs: 30_000 };
  request = withBody(request, plan.body, person, state);
  if (plan.protocol) request = bendProtocol(plan.protocol, request, host);
  const carried = Object.values(segments).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  return { request, as: plan.caller.kind === 'person' ? person : undefined, carried };
}

function withBody(req: WireRequest, body: BodyPlan, person: Person, state: BuildState): WireRequest {
  const marker = state.marker(person);
  switch (body.kind) {
    case 'none':
      return req;
    case 'json':
      return body.value === undefined
        ? req
        : {
            ...req,
            headers: [...req.headers, ['Content-Type', 'application/json']],
            body: Buffer.from(JSON.stringify(body.value)),
          };
    case 'json-hostile': {
      const h = hostileJson(body.variant, body.value);
      return {
        ...req,
        headers: [...req.headers, ...h.headers],
        body: h.body,
        ...(h.delivery ? { delivery: h.delivery } : {}),
      };
    }
    case 'multipart': {
      const boundary = `----fuzz${randomBytes(6).toString('hex')}`;
      const bytes = body.file ? fileBytes(body.file, marker) : undefined;
      return {
        ...req,
        headers: [...req.headers, ['Content-Type', `multipart/form-data; boundary=${boundary}`]],
        body: multipartBody(body.fields, body.fileField, body.file, bytes, boundary),
      };
    }
    case 'multipart-hostile': {
      const m = hostileMultipart(body.variant, body.file, fileBytes(body.file, marker));
      return {
        ...req,
        headers: [...req.headers, ['Content-Type', m.type]],
        body: m.body!,
        ...(m.delivery ? { delivery: m.delivery } : {}),
        timeoutMs: 60_000,
      };
    }
  }
}
