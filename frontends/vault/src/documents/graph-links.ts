// The graph view's links (docs/product.md#document-vault): documents joined by shared hashtags, a shared
// author, influences (shared, or one document's influence is another's author) and vector similarity.
import type { VaultDocument } from './document-types.ts';

export type LinkKind = 'hashtag' | 'author' | 'influence' | 'similarity';

export const LINK_KINDS: { kind: LinkKind; label: string; color: string }[] = [
  { kind: 'hashtag', label: 'Shared hashtags', color: '#2ee6d6' },
  { kind: 'author', label: 'Same author', color: '#f5c542' },
  { kind: 'influence', label: 'Influences', color: '#ff4fd8' },
  { kind: 'similarity', label: 'Similar content', color: '#8b5cf6' },
];

export interface GraphLink {
  source: string;
  target: string;
  kinds: LinkKind[];
  /** What the two share, for the link's tooltip (e.g. "#ethics", "Jane Doe", "similarity 0.82"). */
  reasons: string[];
  similarity?: number;
}

/** Beyond this many members a shared value links its documents in a ring, not all pairs (n² links). */
export const CLIQUE_LIMIT = 12;

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

export function buildGraphLinks(
  docs: readonly VaultDocument[],
  similarity: readonly { source: string; target: string; similarity: number }[] = [],
  enabled: ReadonlySet<LinkKind> = new Set(LINK_KINDS.map((k) => k.kind)),
): GraphLink[] {
  const ids = new Set(docs.map((d) => d.id));
  const links = new Map<string, GraphLink>();
  const add = (a: string, b: string, kind: LinkKind, reason: string, sim?: number) => {
    if (a === b || !enabled.has(kind)) return;
    const [source, target] = a < b ? [a, b] : [b, a];
    const key = `${source}\u0000${target}`;
    let link = links.get(key);
    if (!link) {
      link = { source, target, kinds: [], reasons: [] };
      links.set(key, link);
    }
    if (!link.kinds.includes(kind)) link.kinds.push(kind);
    if (!link.reasons.includes(reason)) link.reasons.push(reason);
    if (sim !== undefined) link.similarity = Math.max(link.similarity ?? 0, sim);
  };
  const linkGroups = (groups: Map<string, { label: string; ids: string[] }>, kind: LinkKind, prefix = '') => {
    for (const { label, ids: members } of groups.values()) {
      const unique = [...new Set(members)];
      if (unique.length < 2) continue;
      if (unique.length <= CLIQUE_LIMIT) {
        for (let i = 0; i < unique.length; i++)
          for (let j = i + 1; j < unique.length; j++) add(unique[i]!, unique[j]!, kind, prefix + label);
      } else {
        for (let i = 0; i < unique.length; i++)
          add(unique[i]!, unique[(i + 1) % unique.length]!, kind, prefix + label);
      }
    }
  };
  const group = (pick: (d: VaultDocument) => string[]) => {
    const groups = new Map<string, { label: string; ids: string[] }>();
    for (const d of docs) {
      for (const value of pick(d)) {
        const k = norm(value);
        if (k === '') continue;
        const g = groups.get(k) ?? { label: value.trim(), ids: [] };
        g.ids.push(d.id);
        groups.set(k, g);
      }
    }
    return groups;
  };

  linkGroups(
    group((d) => d.hashtags.map((h) => h.tag.replace(/^#/, ''))),
    'hashtag',
    '#',
  );
  linkGroups(
    group((d) => (d.author ? [d.author] : [])),
    'author',
  );
  linkGroups(
    group((d) => d.influenced_by),
    'influence',
    'both cite ',
  );
  // One document's influence is another's author.
  const byAuthor = group((d) => (d.author ? [d.author] : []));
  for (const d of docs) {
    for (const influence of d.influenced_by) {
      const authored = byAuthor.get(norm(influence));
      for (const other of authored?.ids ?? [])
        add(d.id, other, 'influence', `influenced by ${influence.trim()}`);
    }
  }
  for (const e of similarity) {
    if (ids.has(e.source) && ids.has(e.target)) {
      add(e.source, e.target, 'similarity', `similarity ${e.similarity.toFixed(2)}`, e.similarity);
    }
  }
  return [...links.values()];
}

/** How many links each document has (node size in the graph). */
export function degrees(links: readonly GraphLink[]): Map<string, number> {
  const deg = new Map<string, number>();
  for (const l of links) {
    deg.set(l.source, (deg.get(l.source) ?? 0) + 1);
    deg.set(l.target, (deg.get(l.target) ?? 0) + 1);
  }
  return deg;
}

/**
 * A node's label, shortened at a word boundary: each word shown is a word of its accessible name
 * (WCAG 2.5.3, "label in name"), which a word cut in half is not.
 */
export function shortLabel(title: string, max = 28): string {
  if (title.length <= max) return title;
  const cut = title.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 3 ? cut.slice(0, space) : cut).replace(/[\s,:;.-]+$/, '')}…`;
}
