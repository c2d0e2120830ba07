// k6 load test of the search path (POST /api/search) against a running Kaboodle (a cluster or
// `make up`): signs in once, then offers keyword and semantic queries at fixed arrival rates and
// fails the run when latency or error thresholds are broken. k6 does not run on the dev machines
// here; services/search/bench/http.bench.ts measures the same path with autocannon.
//
//   k6 run -e BASE_URL=https://kaboodle.example.com -e EMAIL=loadtest@example.com -e PASSWORD=... \
//          tests/load/search.k6.js
//
// Environment (all optional but BASE_URL and the credentials):
//   BASE_URL           where the ingress answers (default http://localhost:8080)
//   EMAIL, PASSWORD    an existing user whose library the queries search (REGISTER=1 creates one)
//   KEYWORD_RATE       keyword requests per second (default 100)
//   SEMANTIC_RATE      semantic (hybrid) requests per second (default 50)
//   DURATION           how long each scenario offers load (default 2m; keep it under the access-token
//                      lifetime, ACCESS_TOKEN_TTL, 10 min by default)
//   KEYWORD_P95_MS     threshold on keyword p95 (default 15, the goal)
//   SEMANTIC_P95_MS    threshold on semantic p95 (default 60)
import http from 'k6/http';
import { check, fail } from 'k6';
import { Counter } from 'k6/metrics';

const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/$/, '');
const DURATION = __ENV.DURATION || '2m';
const KEYWORD_RATE = Number(__ENV.KEYWORD_RATE || 100);
const SEMANTIC_RATE = Number(__ENV.SEMANTIC_RATE || 50);
const KEYWORD_P95_MS = Number(__ENV.KEYWORD_P95_MS || 15);
const SEMANTIC_P95_MS = Number(__ENV.SEMANTIC_P95_MS || 60);

const degraded = new Counter('search_degraded_to_keyword');

export const options = {
  scenarios: {
    keyword: {
      executor: 'constant-arrival-rate',
      exec: 'keyword',
      rate: KEYWORD_RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: Math.max(10, Math.ceil(KEYWORD_RATE / 5)),
      maxVUs: Math.max(50, KEYWORD_RATE * 2),
    },
    semantic: {
      executor: 'constant-arrival-rate',
      exec: 'semantic',
      rate: SEMANTIC_RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: Math.max(10, Math.ceil(SEMANTIC_RATE / 2)),
      maxVUs: Math.max(50, SEMANTIC_RATE * 4),
    },
  },
  thresholds: {
    'http_req_duration{mode:keyword}': [`p(95)<${KEYWORD_P95_MS}`],
    'http_req_duration{mode:semantic}': [`p(95)<${SEMANTIC_P95_MS}`],
    'http_req_failed{mode:keyword}': ['rate<0.01'],
    'http_req_failed{mode:semantic}': ['rate<0.01'],
    checks: ['rate>0.99'],
    // Constant arrival rate: k6 drops iterations it cannot start in time; few should be dropped.
    dropped_iterations: ['count<100'],
  },
};

// What people type: single topics, descriptions of things, vague wishes (a mix, so the query-
// embedding cache sees repeats and new texts alike).
const TOPICS = [
  'ocean warming',
  'carbon capture',
  'inflation expectations',
  'housing prices',
  'vaccine efficacy',
  'sleep apnea',
  'graph databases',
  'vector search',
  'medieval trade routes',
  'colonial archives',
  'contract disputes',
  'tenancy rights',
  'early literacy',
  'exam anxiety',
  'pollinator decline',
  'wetland restoration',
  'glass beads',
  'woven baskets',
  'raffia fans',
  'ceramic bowls',
];
const THINGS = ['crimson stool', 'navy tote bag', 'olive ceramic bowl', 'brass table lamp', 'walnut desk'];
const WISHES = [
  'something handmade to sit on',
  'papers about climate and farming',
  'why do tired doctors make mistakes',
  'legal memos about employment',
  'how did tote bag sales do last quarter',
];

function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

function headers(token) {
  return {
    'Content-Type': 'application/json',
    Authorization: `Bearer ${token}`,
    // The CSRF rule: state-changing requests carry it (bearer requests skip the token check).
    'X-Requested-With': 'XMLHttpRequest',
  };
}

export function setup() {
  const email = __ENV.EMAIL;
  const password = __ENV.PASSWORD;
  if (!email || !password) fail('set EMAIL and PASSWORD (and REGISTER=1 to create the user)');
  const json = { headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' } };
  if (__ENV.REGISTER === '1') {
    const reg = http.post(
      `${BASE_URL}/api/auth/register`,
      JSON.stringify({ email, password, name: 'Load Test' }),
      json,
    );
    if (reg.status !== 201 && reg.status !== 409) fail(`register answered ${reg.status}: ${reg.body}`);
  }
  const res = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ email, password }), json);
  if (res.status !== 200) fail(`login answered ${res.status}: ${res.body}`);
  return { token: res.json('token') };
}

function search(token, query, searchType, mode) {
  const res = http.post(
    `${BASE_URL}/api/search`,
    JSON.stringify({ query, search_type: searchType, limit: 20 }),
    { headers: headers(token), tags: { mode, name: 'POST /api/search' } },
  );
  check(res, {
    'status 200': (r) => r.status === 200,
    'results is a list': (r) => r.status === 200 && Array.isArray(r.json('results')),
    'scores in [0, 1]': (r) =>
      r.status === 200 && (r.json('results') || []).every((h) => h.score >= 0 && h.score <= 1),
  });
  if (res.headers['X-Search-Degraded']) degraded.add(1);
}

export function keyword(data) {
  search(data.token, pick(TOPICS), 'keyword', 'keyword');
}

export function semantic(data) {
  const r = Math.random();
  const query =
    r < 0.4
      ? pick(WISHES)
      : r < 0.7
        ? pick(THINGS)
        : `${pick(TOPICS)} in ${pick(['Africa', 'Europe', 'cities'])}`;
  search(data.token, query, 'semantic', 'semantic');
}
