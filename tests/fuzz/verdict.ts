// What one answer is judged on: it came (no hang), its status is one the document declares for the
// operation (a 500 never is), a refusal carries a message written for a person (no stack, path,
// engine error or library text), it carries nothing of the other person's, and a forged, expired,
// revoked or cookie-without-CSRF caller was refused.
import type { FuzzOperation } from './openapi.ts';
import type { Plan } from './plans.ts';
import type { WireResponse } from './wire.ts';

export type FindingKind =
  'crash' | 'hang' | 'undeclared' | 'unclear' | 'isolation' | 'auth' | 'leak' | 'file-outcome';

export interface Finding {
  kind: FindingKind;
  route: string;
  detail: string;
  /** Index of the case in this seed's sequence (replay with FUZZ_ONLY). */
  caseIndex?: number;
  /** The request, shortened, for the report. */
  request?: string;
}

/** Statuses Node's HTTP parser answers with itself, before any route sees the request. */
const PARSER_STATUSES = new Set([400, 408, 413, 414, 431]);

/** Texts a refusal must never contain: they speak of our insides, not of the person's request. */
const INTERNALS = [
  /\n\s+at\s/,
  /\bat (?:async )?[\w.<>]+ \(/,
  /\.(?:ts|js|mjs|cjs):\d+/,
  /node_modules/,
  /\/(?:work|home|root|tmp|usr|var|app|srv)\//,
  /\bE(?:CONN\w+|PIPE|ACCES|NOENT|MFILE|ADDRINUSE)\b/,
  /SQLSTATE|syntax error at or near|relation "|duplicate key value|violates \w+ constraint/i,
  /\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b/,
  /Cannot read propert|is not a function|is not iterable|\[object Object\]|undefined is not/,
  /Unexpected token .* in JSON at position/,
];

export interface JudgeInput {
  index: number;
  route: string;
  op: FuzzOperation;
  plan: Plan;
  res: WireResponse;
  /** What the case did to the connection itself (cut or dropped: no answer is expected). */
  cutByClient: boolean;
  /** Strings of the other person's that must not appear (ids, e-mails, markers), minus those the request carried. */
  foreignSecrets: ReadonlySet<string>;
  requestText: string;
  /** Size of the request line and headers. */
  headBytes: number;
}

/** Word-like runs of an answer: ids, e-mails and markers are found among them. */
export function tokensOf(text: string): string[] {
  return text.match(/[\w.@+-]{6,}/g) ?? [];
}

export function clarityProblem(res: WireResponse): string | undefined {
  const text = res.body.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `a ${res.status} without a JSON body: ${JSON.stringify(text.slice(0, 120))}`;
  }
  const message = (body as { message?: unknown } | null)?.message;
  if (typeof message !== 'string' || !message.trim())
    return `a ${res.status} without a message: ${text.slice(0, 160)}`;
  const leak = INTERNALS.find((re) => re.test(text));
  if (leak) return `a ${res.status} whose body shows internals (${leak.source}): ${text.slice(0, 240)}`;
  return undefined;
}

export function judge(input: JudgeInput): Finding[] {
  const { res, op, plan, route } = input;
  const found: Finding[] = [];
  const add = (kind: FindingKind, detail: string) =>
    found.push({ kind, route, detail, caseIndex: input.index, request: input.requestText });
  if (res.timedOut) {
    add('hang', `no answer within the time limit (${Math.round(res.ms)} ms)`);
    return found;
  }
  if (res.status === 0) {
    // A case that cut or dropped its own connection expects none; garbage may be closed on.
    if (!input.cutByClient && plan.protocol !== 'garbage-bytes')
      add('unclear', 'the connection was closed without an answer');
    return found;
  }
  const protocol =
    plan.kind === 'hostile-protocol' ||
    (plan.body.kind === 'json-hostile' &&
      ['length-too-short', 'chunked-bad-size'].includes(plan.body.variant));
  // Node answers a head past its 16 KiB limit itself (431), whatever the operation.
  const parserOnly =
    (protocol && PARSER_STATUSES.has(res.status)) || (input.headBytes > 16_384 && res.status === 431);
  // A path bent out of the template is no longer this operation's: the router's 404 is right.
  const offRoute =
    res.status === 404 && (plan.protocol === 'bad-percent-path' || plan.protocol === 'absolute-form');
  const declared = op.declared.has(res.status) || parserOnly || offRoute;
  if (res.status >= 500 && res.status !== 503)
    add('undeclared', `${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
  else if (!declared)
    add(
      'undeclared',
      `${res.status} is not declared for ${op.id}: ${res.body.toString('utf8').slice(0, 300)}`,
    );
  if (res.status >= 400) {
    const problem = clarityProblem(res);
    if (problem) add('unclear', problem);
  }
  const ok = res.status >= 200 && res.status < 300;
  if (plan.kind === 'other-person-id' && ok) add('isolation', `${res.status} for another person's id`);
  if (plan.kind === 'bad-token' && ok && plan.caller.kind === 'bad-token' && op.signedIn)
    add('auth', `${res.status} with a ${plan.caller.token} token`);
  if (plan.kind === 'csrf' && ok && plan.caller.kind === 'csrf')
    add('auth', `${res.status} for a cookie caller with ${plan.caller.variant}`);
  if (input.foreignSecrets.size) {
    const text = `${res.body.toString('utf8')}\n${Object.values(res.headers).join('\n')}`;
    // Small answers are searched for each secret; big ones (viewer bundles) by their word-like runs.
    const seen =
      text.length < 65_536
        ? [...input.foreignSecrets].filter((s) => text.includes(s))
        : tokensOf(text).filter((t) => input.foreignSecrets.has(t));
    if (seen.length)
      add('isolation', `the answer carries the other person's ${[...new Set(seen)].slice(0, 3).join(', ')}`);
  }
  return found;
}
