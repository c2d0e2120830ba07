// One fuzzing campaign against a throwaway Kaboodle: start it, read its OpenAPI document(s), sign two
// people in, give each canary files, upload the hostile corpus, then run N cases drawn by fast-check
// from the seed, judging every answer, while a watchdog checks the process answers /healthz. Ends by
// following every accepted upload to its end, checking the canaries are untouched, and comparing
// temp files, descriptors, threads and memory with the warm baseline.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Accounts, PEOPLE } from './accounts.ts';
import type { HostPort, Person } from './accounts.ts';
import { buildRequest, other } from './build.ts';
import type { BuildState } from './build.ts';
import { hostileCorpus } from './hostile-files.ts';
import { checkLeaksWhenIdle, measure, settle } from './leaks.ts';
import type { LeakReport, Snapshot } from './leaks.ts';
import { readOperations } from './openapi.ts';
import type { OpenApiDocument } from './openapi.ts';
import { planArbitrary } from './plans.ts';
import type { Plan } from './plans.ts';
import { RouteStats } from './report.ts';
import { holdSlowClients } from './slow-clients.ts';
import { startTarget } from './targets.ts';
import type { Mode, Target } from './targets.ts';
import { FAULT_REASON_PATTERN, fileStatus, findUploadRoutes, uploadFile, waitForEnds } from './uploads.ts';
import type { Located, UploadRoutes } from './uploads.ts';
import { clarityProblem, judge } from './verdict.ts';
import type { Finding } from './verdict.ts';
import { exchange } from './wire.ts';
import type { WireRequest, WireResponse } from './wire.ts';

export interface CampaignOptions {
  mode: Mode;
  cases: number;
  seed: number;
  concurrency: number;
  /** Add the big corpus files (19 MB PNG, 64 MiB bombs). */
  heavy: boolean;
  /** Run only this case of the seed's sequence (a replay). */
  only?: number;
  /** How long accepted uploads get to end after the cases (default 240 s). */
  settleMs?: number;
  log: (line: string) => void;
}

export interface CampaignResult {
  mode: Mode;
  seed: number;
  cases: number;
  findings: Finding[];
  stats: RouteStats;
  leaks: LeakReport;
  operations: number;
  wallMs: number;
}

interface Operation extends Located {
  route: string;
}

const getJson = async (at: HostPort, path: string): Promise<unknown> => {
  const res = await exchange(at, { method: 'GET', path, headers: [], timeoutMs: 30_000 });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  return JSON.parse(res.body.toString('utf8'));
};

function requestText(req: WireRequest): string {
  const head = `${req.method} ${req.path.length > 160 ? `${req.path.slice(0, 160)}…` : req.path}`;
  const headers = req.headers
    .slice(0, 8)
    .map(([n, v]) => `${n}: ${v.length > 80 ? `${v.slice(0, 80)}…` : v}`)
    .join(' | ');
  const body = req.body
    ? ` body(${req.body.length} bytes): ${JSON.stringify(req.body.subarray(0, 120).toString('latin1'))}`
    : '';
  return `${head} [${headers}${req.headers.length > 8 ? ` | …${req.headers.length - 8} more` : ''}]${body}${req.delivery && req.delivery.kind !== 'whole' ? ` delivery=${req.delivery.kind}` : ''}`;
}

/** Every operation the target's documents declare, each at the process that serves it. */
async function discover(target: Target): Promise<{ doc: OpenApiDocument; ops: Operation[] }> {
  const ops: Operation[] = [];
  let first: OpenApiDocument | undefined;
  for (const p of target.processes) {
    const doc = (await getJson(p.hostPort, '/api/openapi.json')) as OpenApiDocument;
    first ??= doc;
    // The web target publishes every service's operations but serves only its own (the docs).
    const own = readOperations(doc).filter((op) => p.role !== 'web' || op.service === 'platform');
    for (const op of own) {
      const route = `${op.method} ${op.path}${target.mode === 'split' ? ` @${p.role}` : ''}`;
      ops.push({ op, at: p.hostPort, route });
    }
  }
  // Split, every process's document has the same components; the first one resolves $refs for all.
  const merged: OpenApiDocument = { ...first!, components: { schemas: {} } };
  for (const p of target.processes) {
    const doc = (await getJson(p.hostPort, '/api/openapi.json')) as OpenApiDocument;
    Object.assign(merged.components!.schemas!, doc.components?.schemas ?? {});
  }
  return { doc: merged, ops };
}

/** Ids named anywhere in a JSON answer (keys id, …_id, …Id). */
function idsIn(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && /(^id$|_id$|Id$)/.test(k) && /^[\w.:-]{6,200}$/.test(v)) out.add(v);
    else idsIn(v, out, depth + 1);
  }
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const started = Date.now();
  const { log } = options;
  const findings: Finding[] = [];
  const stats = new RouteStats();
  log(
    `starting kaboodle (${options.mode === 'all' ? '--target=all, embedded engines' : 'one process per service, real engines'})`,
  );
  const target = await startTarget(options.mode);
  let crashed = false;
  let stopping = false;
  for (const p of target.processes) {
    p.proc.child.once('exit', (code, signal) => {
      if (stopping) return;
      crashed = true;
      findings.push({
        kind: 'crash',
        route: `process ${p.role}`,
        detail: `exited with ${code ?? signal} during the campaign:\n${p.proc.output().split('\n').slice(-25).join('\n')}`,
      });
    });
  }
  const host = (at: HostPort) => `${at.host}:${at.port}`;
  const runTag = randomBytes(4).toString('hex');
  const markers = { alice: `kbfz-alice-${runTag}`, bob: `kbfz-bob-${runTag}` } as const;
  const accounts = new Accounts({ auth: target.auth, tokenTtlMs: target.tokenTtlMs, runTag });
  const pools = { alice: new Set<string>(), bob: new Set<string>() };
  const canaries = { alice: [] as string[], bob: [] as string[] };
  /** Corpus files: followed to their own end, so own-id cases leave them alone (canaries too). */
  const protectedIds = new Set<string>();
  const tracked: Array<{
    person: Person;
    id: string;
    label: string;
    expect: 'failed' | 'ends';
    request: string;
  }> = [];
  let leaks: LeakReport = { ok: true, lines: [], findings: [] };
  let caseCount = 0;
  let watchdog: NodeJS.Timeout | undefined;

  try {
    const { doc, ops } = await discover(target);
    log(
      `${ops.length} operations in the document${ops.length === 1 ? '' : 's'}: ${[...new Set(ops.map((o) => o.op.id))].join(', ')}`,
    );
    await accounts.setUp();
    const jwks = await getJson(target.auth, '/api/auth/jwks').catch(() => ({}));
    const routes: UploadRoutes | undefined = findUploadRoutes(doc, ops);
    const secretsOf = (p: Person): Set<string> => {
      const s = new Set<string>([markers[p], ...pools[p], ...canaries[p]]);
      for (const id of accounts.identitiesOf(p)) {
        s.add(id.email);
        if (id.userId) s.add(id.userId);
      }
      return s;
    };
    const state: BuildState = {
      accounts,
      ownIds: (p) => [...pools[p]].filter((id) => !protectedIds.has(id)),
      foreignIds: (p) => [...canaries[other(p)], ...pools[other(p)]],
      marker: (p) => markers[p],
      jwks,
    };

    // Canaries: files each person keeps for the whole run; only the other person's cases aim at them.
    if (routes) {
      for (const person of PEOPLE) {
        for (let i = 0; i < 2; i++) {
          const up = await uploadFile(routes, accounts, person, {
            name: `canary-${i}-${markers[person]}.txt`,
            type: 'text/plain',
            bytes: Buffer.from(`Canary ${i} of ${markers[person]}\nKeep this safe.\n`),
          });
          if (!up.id)
            throw new Error(
              `canary upload for ${person}: ${up.res.status} ${up.res.body.toString('utf8').slice(0, 300)}`,
            );
          canaries[person].push(up.id);
          protectedIds.add(up.id);
        }
      }
      const ends = await waitForEnds(
        routes,
        accounts,
        PEOPLE.flatMap((p) => canaries[p].map((id) => ({ person: p, id }))),
        180_000,
      );
      log(`canaries: ${[...ends.values()].map((o) => o?.status ?? 'unknown').join(', ')}`);
    } else log('no upload operation with a status operation in the document: uploads are not followed');

    // The hostile corpus (skipped when replaying one case).
    if (routes && options.only === undefined) {
      // Each person's files carry their own marker: text of alice's in bob's own documents would
      // read as a breach wherever bob's data shows it (his activity, his search results).
      const corpora = {
        alice: await hostileCorpus(markers.alice, options.heavy),
        bob: await hostileCorpus(markers.bob, options.heavy),
      };
      log(`hostile corpus: ${corpora.alice.length} files`);
      for (const i of corpora.alice.keys()) {
        const person = PEOPLE[i % 2]!;
        const file = corpora[person][i]!;
        const up = await uploadFile(routes, accounts, person, file);
        caseCount++;
        stats.record(
          `${routes.upload.route ?? `${routes.upload.op.method} ${routes.upload.op.path}`} (corpus)`,
          up.res,
          0,
        );
        if (up.res.status >= 500 || !routes.upload.op.declared.has(up.res.status))
          findings.push({
            kind: 'undeclared',
            route: 'corpus',
            detail: `${file.label}: ${up.res.status} ${up.res.body.toString('utf8').slice(0, 200)}`,
            request: up.requestText,
          });
        else if (up.res.status >= 400) {
          const problem = clarityProblem(up.res);
          if (problem)
            findings.push({
              kind: 'unclear',
              route: 'corpus',
              detail: `${file.label}: ${problem}`,
              request: up.requestText,
            });
        }
        if (up.id) {
          protectedIds.add(up.id);
          tracked.push({
            person,
            id: up.id,
            label: file.label,
            expect: file.expect,
            request: up.requestText,
          });
        }
      }
    }

    const arbitrary = planArbitrary(
      doc,
      ops.map((o) => o.op),
    );
    const plans: Plan[] = fc.sample(arbitrary, {
      seed: options.seed,
      numRuns: options.only !== undefined ? options.only + 1 : options.cases,
    });
    const indices = options.only !== undefined ? [options.only] : plans.map((_, i) => i);

    // The watchdog: the process answers /healthz within 10 s all along, or it is hung.
    watchdog = setInterval(() => {
      for (const p of target.processes) {
        void exchange(p.hostPort, { method: 'GET', path: '/healthz', headers: [], timeoutMs: 10_000 }).then(
          (res) => {
            if (res.timedOut && !crashed)
              findings.push({
                kind: 'hang',
                route: `process ${p.role}`,
                detail: '/healthz did not answer within 10 s',
              });
          },
        );
      }
    }, 3000);

    const slow = holdSlowClients(ops[0]!.at, options.only === undefined ? 12 : 0);
    let baseline: Snapshot | undefined;
    const warmAt = Math.floor(indices.length * 0.2);
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < indices.length && !crashed) {
        const index = indices[next++]!;
        const plan = plans[index]!;
        const o = ops[plan.op]!;
        const built = buildRequest(plan, o.op, state, host(o.at));
        const person = plan.caller.person;
        const foreign = secretsOf(other(person));
        for (const c of built.carried) foreign.delete(c);
        const res: WireResponse = await exchange(o.at, built.request);
        caseCount++;
        const text = requestText(built.request);
        const cutByClient =
          built.request.delivery?.kind === 'cut' ||
          (plan.protocol !== undefined &&
            ['huge-length-then-close', 'garbage-bytes'].includes(plan.protocol));
        findings.push(
          ...judge({
            index,
            route: o.route,
            op: o.op,
            plan,
            res,
            cutByClient,
            foreignSecrets: foreign,
            requestText: text,
            headBytes:
              built.request.path.length +
              built.request.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0),
          }),
        );
        stats.record(o.route, res, findings.filter((f) => f.caseIndex === index).length);
        // Only signed-in operations answer with what a person owns (the document's own ids are not theirs).
        if (built.as && o.op.signedIn && res.status >= 200 && res.status < 300) {
          try {
            const found = new Set<string>();
            idsIn(JSON.parse(res.body.toString('utf8')), found);
            for (const id of found) if (!canaries[other(built.as)].includes(id)) pools[built.as].add(id);
            if (
              routes &&
              o.op === routes.upload.op &&
              typeof (JSON.parse(res.body.toString('utf8')) as { id?: unknown }).id === 'string'
            )
              tracked.push({
                person: built.as,
                id: (JSON.parse(res.body.toString('utf8')) as { id: string }).id,
                label: 'fuzzed upload',
                expect: 'ends',
                request: text,
              });
          } catch {
            // not JSON (a file, a page)
          }
        }
        // A good session answered 401: a case ended it (a fuzzed logout): sign in again.
        if (built.as && res.status === 401) await accounts.renew(built.as, accounts.current(built.as)?.token);
        done++;
        if (done === warmAt) baseline = await measure(target);
        if (done % 1000 === 0) log(`${done}/${indices.length} cases, ${findings.length} findings`);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
    clearInterval(watchdog);
    watchdog = undefined;
    const held = slow.stop();
    log(
      `${held.opened} slow-header connections held open all along (${held.closedByServer} closed by the server)`,
    );
    log(
      `cases done in ${Math.round((Date.now() - started) / 1000)} s; following ${tracked.length} accepted uploads to their end`,
    );

    if (!crashed && routes) {
      const ends = await waitForEnds(routes, accounts, tracked, options.settleMs ?? 240_000);
      for (const t of tracked) {
        const end = ends.get(t.id);
        if (!end) continue; // deleted by a case meanwhile
        const bad = !['completed', 'failed', 'cancelled'].includes(end.status)
          ? `still ${end.status} after the wait`
          : end.status === 'failed' && (!end.error?.trim() || FAULT_REASON_PATTERN.test(end.error))
            ? `failed with a reason the person cannot act on: ${JSON.stringify(end.error)}`
            : t.expect === 'failed' && end.status === 'completed'
              ? 'completed, but it cannot be read'
              : undefined;
        if (bad)
          findings.push({
            kind: 'file-outcome',
            route: 'uploads',
            detail: `${t.label}: ${bad}`,
            request: t.request,
          });
      }
      for (const person of PEOPLE)
        for (const id of canaries[person]) {
          const end = await fileStatus(routes, accounts, person, id);
          if (!end)
            findings.push({
              kind: 'isolation',
              route: 'canaries',
              detail: `${person}'s canary ${id} is gone or unreadable after the other person's cases`,
            });
        }
      const corpusEnds = tracked
        .filter((t) => t.label !== 'fuzzed upload')
        .map(
          (t) =>
            `${t.label}: ${ends.get(t.id)?.status ?? 'gone'}${ends.get(t.id)?.error ? ` (${ends.get(t.id)!.error})` : ''}`,
        );
      for (const line of corpusEnds) log(`  corpus ${line}`);
    }
    if (!crashed) {
      await settle(target);
      leaks = await checkLeaksWhenIdle(baseline ?? (await measure(target)), target);
      findings.push(...leaks.findings);
    }
  } finally {
    if (watchdog) clearInterval(watchdog);
    stopping = true;
    const codes = crashed ? [] : await target.stop();
    if (!crashed && codes.some((c) => c !== 0))
      findings.push({
        kind: 'crash',
        route: 'shutdown',
        detail: `exit codes on SIGTERM: ${codes.join(', ')}`,
      });
    if (crashed) await target.stop().catch(() => undefined);
  }
  return {
    mode: options.mode,
    seed: options.seed,
    cases: caseCount,
    findings,
    stats,
    leaks,
    operations: stats.routes().length,
    wallMs: Date.now() - started,
  };
}
