// The graph in words (a text equivalent for people who do not see it, or prefer a list): each
// document with the documents it is linked to and why, the most connected first. Each name opens it.
import type { VaultDocument } from '../document-types.ts';
import type { GraphLink } from '../graph-links.ts';

export function GraphList({
  docs,
  links,
  onOpen,
}: {
  docs: readonly VaultDocument[];
  links: readonly GraphLink[];
  onOpen: (doc: VaultDocument) => void;
}) {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const titleOf = (d: VaultDocument) => d.title || d.file_name || 'Untitled';
  const neighbours = new Map<string, { doc: VaultDocument; reasons: string[] }[]>();
  for (const l of links) {
    const a = byId.get(l.source);
    const b = byId.get(l.target);
    if (!a || !b) continue;
    (neighbours.get(a.id) ?? neighbours.set(a.id, []).get(a.id)!).push({ doc: b, reasons: l.reasons });
    (neighbours.get(b.id) ?? neighbours.set(b.id, []).get(b.id)!).push({ doc: a, reasons: l.reasons });
  }
  const ordered = [...docs].sort(
    (x, y) => (neighbours.get(y.id)?.length ?? 0) - (neighbours.get(x.id)?.length ?? 0),
  );
  return (
    <details className="kb-graph__list" data-testid="graph-as-list">
      <summary>The graph as a list</summary>
      <ul>
        {ordered.map((d) => {
          const linked = neighbours.get(d.id) ?? [];
          return (
            <li key={d.id}>
              <button type="button" className="kb-vault-link" onClick={() => onOpen(d)}>
                {titleOf(d)}
              </button>
              {linked.length === 0 ? (
                <span className="kb-muted"> · not linked to another document</span>
              ) : (
                <span>
                  {' '}
                  · linked to{' '}
                  {linked.map((n) => `${titleOf(n.doc)} (${n.reasons.slice(0, 3).join(', ')})`).join('; ')}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
