// One fixed-rate load against a running product server, by hand: the product bench's own driver
// (an open loop, a new query text per request) and the server's RSS sampled meanwhile. For looking
// into one mode at one rate without the whole product bench (e.g. while a snapshot save runs).
// Run: node tests/bench/search/load-once.ts --user <data dir>/bench-user.json --pid <server pid>
//   [--url http://127.0.0.1:4431] [--mode keyword] [--rate 100] [--seconds 15]
import { readFileSync } from 'node:fs';
import { numberArg } from './bench-args.ts';
import { generateQueries } from './generate-items.ts';
import { drive } from './product-driver.ts';
import { rssMb, signIn, type BenchUser } from './product-server.ts';

const arg = (name: string, fallback?: string): string => {
  const at = process.argv.indexOf(name);
  const v = at >= 0 ? process.argv[at + 1] : fallback;
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
};
const url = arg('--url', 'http://127.0.0.1:4431');
const user = JSON.parse(readFileSync(arg('--user'), 'utf8')) as BenchUser;
const pid = Number(arg('--pid'));
const mode = arg('--mode', 'keyword');
const rate = numberArg('--rate', 100);
const seconds = numberArg('--seconds', 15);

const token = await signIn(url, user);
let maxRss = 0;
const sampler = setInterval(() => (maxRss = Math.max(maxRss, rssMb(pid))), 200);
const r = await drive({
  url,
  token,
  searchType: mode,
  queries: generateQueries(42, 200),
  uniqueTag: `L${Date.now()}n`,
  rate,
  durationS: seconds,
});
clearInterval(sampler);
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : '-');
console.log(
  `${mode} ${rate}/s for ${seconds} s: p50 ${ms(r.p50)}, p95 ${ms(r.p95)}, p99 ${ms(r.p99)}, server p95 ${ms(r.serverP95)}, ` +
    `failed ${r.failed} of ${r.requests}${r.firstFailure ? ` (${r.firstFailure})` : ''}; RSS max ${maxRss.toFixed(0)} MB`,
);
