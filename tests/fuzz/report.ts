// The campaign's figures: the one-line verdict (`N cases, 0 crashes, 0 undeclared 5xx, 0 leaks`),
// the other assertions' counts, a table by route, and each finding with the request that caused it.
import type { WireResponse } from './wire.ts';
import type { Finding, FindingKind } from './verdict.ts';

interface Row {
  cases: number;
  s2xx: number;
  s3xx: number;
  s4xx: number;
  s5xx: number;
  none: number;
  findings: number;
  ms: number[];
}

export class RouteStats {
  private readonly rows = new Map<string, Row>();

  record(route: string, res: WireResponse, findings: number): void {
    let row = this.rows.get(route);
    if (!row) {
      row = { cases: 0, s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0, none: 0, findings: 0, ms: [] };
      this.rows.set(route, row);
    }
    row.cases++;
    row.findings += findings;
    row.ms.push(res.ms);
    const s = res.status;
    if (s === 0) row.none++;
    else if (s < 300) row.s2xx++;
    else if (s < 400) row.s3xx++;
    else if (s < 500) row.s4xx++;
    else row.s5xx++;
  }

  routes(): string[] {
    return [...this.rows.keys()];
  }

  table(): string {
    const header = ['route', 'cases', '2xx', '3xx', '4xx', '5xx', 'no answer', 'p50 ms', 'findings'];
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length ? Math.round(s[Math.floor(s.length / 2)]!) : 0;
    };
    const body = [...this.rows.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([route, r]) =>
        [route, r.cases, r.s2xx, r.s3xx, r.s4xx, r.s5xx, r.none, median(r.ms), r.findings].map(String),
      );
    const total = [...this.rows.values()].reduce(
      (t, r) => ({
        ...t,
        cases: t.cases + r.cases,
        s2xx: t.s2xx + r.s2xx,
        s3xx: t.s3xx + r.s3xx,
        s4xx: t.s4xx + r.s4xx,
        s5xx: t.s5xx + r.s5xx,
        none: t.none + r.none,
        findings: t.findings + r.findings,
      }),
      { cases: 0, s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0, none: 0, findings: 0 },
    );
    const all = [...this.rows.values()].flatMap((r) => r.ms);
    const rows = [
      header,
      ...body,
      [
        'total',
        total.cases,
        total.s2xx,
        total.s3xx,
        total.s4xx,
        total.s5xx,
        total.none,
        median(all),
        total.findings,
      ].map(String),
    ];
    const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    const line = (r: string[]) =>
      `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
    const rule = `|${widths.map((w, i) => (i === 0 ? `-${'-'.repeat(w)}-` : `-${'-'.repeat(w - 1)}:`)).join('|')}|`;
    return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
  }
}

const count = (findings: readonly Finding[], ...kinds: FindingKind[]) =>
  findings.filter((f) => kinds.includes(f.kind)).length;

export function summaryLine(cases: number, findings: readonly Finding[]): string {
  return `${cases} cases, ${count(findings, 'crash')} crashes, ${count(findings, 'undeclared')} undeclared 5xx, ${count(findings, 'leak')} leaks`;
}

export function detailLine(findings: readonly Finding[]): string {
  return (
    `${count(findings, 'isolation')} isolation breaches, ${count(findings, 'auth')} forged/expired/CSRF accepted, ` +
    `${count(findings, 'unclear')} unclear refusals, ${count(findings, 'file-outcome')} hostile files without an actionable end, ` +
    `${count(findings, 'hang')} hangs`
  );
}

export function findingsText(findings: readonly Finding[], limit = 40): string {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = `${f.kind} ${f.route} ${f.detail.slice(0, 60)}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const out: string[] = [];
  for (const [, group] of [...groups.entries()].slice(0, limit)) {
    const f = group[0]!;
    out.push(
      `- [${f.kind}] ${f.route}${group.length > 1 ? ` (×${group.length})` : ''}${f.caseIndex !== undefined ? ` case ${f.caseIndex}` : ''}: ${f.detail}`,
    );
    if (f.request) out.push(`    request: ${f.request}`);
  }
  if (groups.size > limit) out.push(`… and ${groups.size - limit} more kinds of finding`);
  return out.join('\n');
}
