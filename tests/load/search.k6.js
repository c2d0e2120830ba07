// k6 load test of the search path against a running Kaboodle (a cluster, or `make up`): it seeds a
// realistic library first — USERS accounts, each with SEED_DOCS generated documents uploaded and
// analysed like any file — then offers load from many users at once:
//   keyword, hybrid  every query unique (a new combination of words found in the seeded documents),
//                    so the 5 s result cache cannot answer for the index;
//   cached           a few fixed queries over and over: what the result cache is worth;
//   upload           a new document every few seconds, timed from upload until search finds it.
// Each virtual user signs in as one of the seeded users and renews its access token before it
// expires (POST /api/auth/refresh, or a new sign-in), so runs longer than the token lifetime work.
// k6 does not run on the dev machines here: tests/contract/k6-script.test.ts type-checks this file
// against k6's types and parses its thresholds; tests/load/README.md says how to run it.
//
//   k6 run -e BASE_URL=https://kaboodle.example.com tests/load/search.k6.js
//
// Environment (all optional):
//   BASE_URL         where the ingress answers (default http://localhost:8080)
//   USERS            seeded accounts that share the load (default 20)
//   SEED_DOCS        documents seeded per account (default 40)
//   PASSWORD         their password (default a fixed load-test one); RUN_ID names the accounts
//   KEYWORD_RATE, HYBRID_RATE, CACHED_RATE   requests per second (default 80, 30, 20)
//   UPLOAD_EVERY     seconds between uploads (default 5)
//   DURATION         how long each scenario offers load (default 10m)
//   KEYWORD_P95_MS, HYBRID_P95_MS, CACHED_P95_MS, SEARCHABLE_P95_S   thresholds (15, 60, 10, 60)
import http from 'k6/http';
import { check, fail, sleep } from 'k6';
import exec from 'k6/execution';
import encoding from 'k6/encoding';
import { Counter, Trend } from 'k6/metrics';

const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/$/, '');
const USERS = Number(__ENV.USERS || 20);
const SEED_DOCS = Number(__ENV.SEED_DOCS || 40);
const PASSWORD = __ENV.PASSWORD || 'load test passphrase, not a secret';
const RUN_ID = __ENV.RUN_ID || 'k6';
const DURATION = __ENV.DURATION || '10m';
const KEYWORD_RATE = Number(__ENV.KEYWORD_RATE || 80);
const HYBRID_RATE = Number(__ENV.HYBRID_RATE || 30);
const CACHED_RATE = Number(__ENV.CACHED_RATE || 20);
const UPLOAD_EVERY = Number(__ENV.UPLOAD_EVERY || 5);

const degraded = new Counter('search_degraded_to_keyword');
const renewals = new Counter('token_renewals');
const searchable = new Trend('upload_to_searchable', true);

/**
 * A scenario offering `rate` requests per second to the function named `fn`.
 * @param {string} fn @param {number} rate @param {number} vusPerRate
 */
const constant = (fn, rate, vusPerRate) => ({
  executor: 'constant-arrival-rate',
  exec: fn,
  rate,
  timeUnit: '1s',
  duration: DURATION,
  startTime: '0s',
  preAllocatedVUs: Math.max(5, Math.ceil(rate / vusPerRate)),
  maxVUs: Math.max(20, rate * 2),
});

export const options = {
  // Seeding uploads and waits for analysis: give it time.
  setupTimeout: '30m',
  scenarios: {
    keyword: constant('keyword', KEYWORD_RATE, 5),
    hybrid: constant('hybrid', HYBRID_RATE, 2),
    cached: constant('cached', CACHED_RATE, 5),
    upload: {
      executor: 'constant-arrival-rate',
      exec: 'upload',
      rate: 1,
      timeUnit: `${UPLOAD_EVERY}s`,
      duration: DURATION,
      preAllocatedVUs: 4,
      maxVUs: 20,
    },
  },
  thresholds: {
    'http_req_duration{scenario:keyword}': [`p(95)<${Number(__ENV.KEYWORD_P95_MS || 15)}`],
    'http_req_duration{scenario:hybrid}': [`p(95)<${Number(__ENV.HYBRID_P95_MS || 60)}`],
    'http_req_duration{scenario:cached}': [`p(95)<${Number(__ENV.CACHED_P95_MS || 10)}`],
    'http_req_failed{scenario:keyword}': ['rate<0.01'],
    'http_req_failed{scenario:hybrid}': ['rate<0.01'],
    'http_req_failed{scenario:upload}': ['rate<0.01'],
    upload_to_searchable: [`p(95)<${Number(__ENV.SEARCHABLE_P95_S || 60) * 1000}`],
    checks: ['rate>0.99'],
    // Constant arrival rate: k6 drops iterations it cannot start in time; few should be dropped.
    dropped_iterations: ['count<100'],
    search_degraded_to_keyword: ['count<10'],
  },
};

// Words the seeded documents are made of, so queries find something, and a few fixed queries.
const SUBJECTS = [
  'ocean',
  'carbon',
  'inflation',
  'housing',
  'vaccine',
  'sleep',
  'graph',
  'vector',
  'trade',
  'archive',
  'contract',
  'tenancy',
  'literacy',
  'anxiety',
  'pollinator',
  'wetland',
  'glass',
  'basket',
  'ceramic',
  'lantern',
  'harbour',
  'orchard',
  'granite',
  'textile',
  'indigo',
  'copper',
  'meadow',
  'glacier',
  'bakery',
  'railway',
];
const QUALITIES = [
  'warming',
  'capture',
  'expectations',
  'prices',
  'efficacy',
  'apnea',
  'databases',
  'search',
  'routes',
  'records',
  'disputes',
  'rights',
  'programmes',
  'studies',
  'decline',
  'restoration',
  'beads',
  'weaving',
  'glazes',
  'repairs',
];
const PLACES = [
  'in coastal towns',
  'across Europe',
  'in northern cities',
  'for small farms',
  'since 1990',
  'after the flood',
];
const FIXED = ['ocean warming', 'woven baskets', 'tenancy rights', 'vaccine efficacy'];

/** A small deterministic generator, so a seed number always gives the same text. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const pickWith = (next, list) => list[Math.floor(next() * list.length)];

/** A generated document: a title, an author and a few paragraphs about two subjects. */
function documentText(seed) {
  const next = rng(seed);
  const a = pickWith(next, SUBJECTS);
  const b = pickWith(next, SUBJECTS);
  const title = `${a[0].toUpperCase()}${a.slice(1)} ${pickWith(next, QUALITIES)} ${pickWith(next, PLACES)}`;
  const lines = [title, `by Load Tester ${seed % 97}`, ''];
  for (let p = 0; p < 4; p++)
    lines.push(
      Array.from(
        { length: 6 },
        () => `${pickWith(next, [a, b])} ${pickWith(next, QUALITIES)} ${pickWith(next, PLACES)}`,
      ).join('. ') + '.',
    );
  return { title, body: lines.join('\n') };
}

const json = { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
const emailOf = (i) => `loadtest+${RUN_ID}-${i}@example.com`;

function signIn(email) {
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ email, password: PASSWORD }), {
    headers: json,
    tags: { name: 'POST /api/auth/login' },
  });
  if (res.status !== 200) fail(`login of ${email} answered ${res.status}: ${res.body}`);
  return res.json('token');
}

/** Seconds since the epoch when a JWT expires (its `exp`), read without checking it. */
function expiresAt(token) {
  const payload = token.split('.')[1] || '';
  return JSON.parse(encoding.b64decode(payload, 'rawurl', 's')).exp;
}

function uploadDocument(token, seed) {
  const doc = documentText(seed);
  const res = http.post(
    `${BASE_URL}/upload`,
    { file: http.file(doc.body, `load-${RUN_ID}-${seed}.txt`, 'text/plain') },
    {
      headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' },
      tags: { name: 'POST /upload' },
    },
  );
  check(res, { 'upload accepted': (r) => r.status === 202 });
  return res.status === 202 ? { id: res.json('id'), title: doc.title } : undefined;
}

function waitProcessed(token, id, timeoutS) {
  const until = Date.now() + timeoutS * 1000;
  while (Date.now() < until) {
    const res = http.get(`${BASE_URL}/process/status/${id}`, {
      headers: { Authorization: `Bearer ${token}` },
      tags: { name: 'GET /process/status/:id' },
    });
    const status = res.status === 200 ? res.json('status') : undefined;
    if (status === 'completed') return true;
    if (status === 'failed' || status === 'cancelled') return false;
    sleep(1);
  }
  return false;
}

export function setup() {
  // Accounts (made once per RUN_ID; a rerun signs in), each seeded with generated documents.
  const users = [];
  for (let i = 0; i < USERS; i++) {
    const email = emailOf(i);
    const reg = http.post(
      `${BASE_URL}/api/auth/register`,
      JSON.stringify({ email, password: PASSWORD, name: `Load ${i}` }),
      {
        headers: json,
        tags: { name: 'POST /api/auth/register' },
      },
    );
    if (reg.status !== 201 && reg.status !== 409) fail(`register answered ${reg.status}: ${reg.body}`);
    const token = reg.status === 201 ? reg.json('token') : signIn(email);
    const pending = [];
    if (reg.status === 201)
      for (let d = 0; d < SEED_DOCS; d++) pending.push(uploadDocument(token, i * 100_000 + d));
    users.push({ email, token, pending: pending.filter(Boolean) });
  }
  let processed = 0;
  for (const u of users) for (const p of u.pending) if (waitProcessed(u.token, p.id, 300)) processed++;
  console.log(`seeded ${users.length} users, ${processed} documents analysed`);
  return { emails: users.map((u) => u.email) };
}

// Per virtual user: which account it acts as, and its access token with its expiry.
let session;

function token(data) {
  const now = Date.now() / 1000;
  if (!session) {
    const email = data.emails[exec.vu.idInTest % data.emails.length];
    const t = signIn(email);
    session = { email, token: t, exp: expiresAt(t) };
  } else if (session.exp - now < 60) {
    // Renew a minute before it expires: the session cookie k6 keeps for this VU refreshes it.
    const res = http.post(`${BASE_URL}/api/auth/refresh`, null, {
      headers: json,
      tags: { name: 'POST /api/auth/refresh' },
    });
    const t = res.status === 200 ? res.json('token') : signIn(session.email);
    session = { ...session, token: t, exp: expiresAt(t) };
    renewals.add(1);
  }
  return session.token;
}

/**
 * The hits of a search answer.
 * @param {import('k6/http').RefinedResponse<'text'>} res
 * @returns {Array<{ id: string, score: number }>}
 */
const hits = (res) => /** @type {any} */ (res.json('results')) || [];

function search(data, query, searchType) {
  const res = http.post(
    `${BASE_URL}/api/search`,
    JSON.stringify({ query, search_type: searchType, limit: 20 }),
    {
      headers: { ...json, Authorization: `Bearer ${token(data)}` },
      tags: { name: 'POST /api/search' },
    },
  );
  if (res.status === 401) session = undefined; // signed out elsewhere: sign in again next time
  check(res, {
    'search 200': (r) => r.status === 200,
    'results is a list': (r) => r.status === 200 && Array.isArray(r.json('results')),
    'scores in [0, 1]': (r) => r.status === 200 && hits(r).every((h) => h.score >= 0 && h.score <= 1),
  });
  if (res.headers['X-Search-Degraded']) degraded.add(1);
  return res;
}

/** A query never asked before in this run: words of the seeded library in a new combination. */
function uniqueQuery(words) {
  const next = rng(exec.scenario.iterationInTest * 7919 + exec.vu.idInTest * 104729 + 1);
  const parts = Array.from({ length: words }, () => pickWith(next, next() < 0.6 ? SUBJECTS : QUALITIES));
  return `${parts.join(' ')} ${pickWith(next, PLACES)}`;
}

export function keyword(data) {
  search(data, uniqueQuery(2), 'keyword');
}

export function hybrid(data) {
  search(data, uniqueQuery(3), 'semantic');
}

export function cached(data) {
  search(data, FIXED[exec.scenario.iterationInTest % FIXED.length], 'keyword');
}

export function upload(data) {
  const t = token(data);
  const started = Date.now();
  const seed = 900_000_000 + exec.scenario.iterationInTest;
  const sent = uploadDocument(t, seed);
  if (!sent || !waitProcessed(t, sent.id, 120)) return;
  // Processed; now until search finds it by its title (the catalogue.changed hop to search).
  for (let i = 0; i < 60; i++) {
    const res = search(data, sent.title, 'keyword');
    if (res.status === 200 && hits(res).some((h) => h.id === sent.id)) {
      searchable.add(Date.now() - started);
      return;
    }
    sleep(1);
  }
}
