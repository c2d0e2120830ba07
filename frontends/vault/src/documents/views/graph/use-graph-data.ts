// The graph view's data hooks: the similarity links asked of the search service, the links the
// person has switched on, and the force layout with its simulation's life (created, ticking while a
// node is dragged, stopped when the documents change or the view goes).
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { VaultDocument } from '../../document-types.ts';
import { fetchNeighbours, type SimilarityEdge } from '../../documents-api.ts';
import { buildGraphLinks, LINK_KINDS, type LinkKind } from '../../graph-links.ts';
import { settleLayout, type GraphLayout, type GraphSimulation } from './graph-layout.ts';

export const SIMILARITY_FAILED = 'Loading the similar-content links failed: the graph shows the other links.';

/** POST /api/search/neighbours for the documents on screen; a failure is told, the rest still drawn. */
export function useSimilarityLinks(docs: readonly VaultDocument[]) {
  const [similarity, setSimilarity] = useState<SimilarityEdge[]>([]);
  const [error, setError] = useState<string | null>(null);
  const idsKey = docs.map((d) => d.id).join(',');
  useEffect(() => {
    const controller = new AbortController();
    const ids = idsKey === '' ? [] : idsKey.split(',');
    fetchNeighbours(ids, controller.signal).then(
      (edges) => {
        setSimilarity(edges);
        setError(null);
      },
      () => {
        if (!controller.signal.aborted) setError(SIMILARITY_FAILED);
      },
    );
    return () => controller.abort();
  }, [idsKey]);
  return { similarity, error, dismissError: () => setError(null) };
}

/** The links drawn: every kind at first; the legend's boxes switch kinds off and on. */
export function useGraphLinks(docs: readonly VaultDocument[], similarity: readonly SimilarityEdge[]) {
  const [enabled, setEnabled] = useState<Set<LinkKind>>(() => new Set(LINK_KINDS.map((k) => k.kind)));
  const links = useMemo(() => buildGraphLinks(docs, similarity, enabled), [docs, similarity, enabled]);
  const toggle = (kind: LinkKind) =>
    setEnabled((s) => {
      const next = new Set(s);
      if (next.has(kind)) next.delete(kind);
      else next.add(kind);
      return next;
    });
  return { links, enabled, toggle };
}

const EMPTY: GraphLayout = { nodes: [], edges: [] };

/**
 * The settled layout of these documents. Laid out in a layout effect (before the browser paints, so
 * no empty frame shows); the simulation it keeps re-renders the view on each tick while a node is
 * dragged, and is stopped when a new layout replaces it or the view unmounts.
 */
export function useGraphLayout(
  docs: readonly VaultDocument[],
  links: ReturnType<typeof buildGraphLinks>,
  height: number,
  narrow: boolean,
) {
  const [graph, setGraph] = useState<GraphLayout>(EMPTY);
  const [, setFrame] = useState(0);
  const simRef = useRef<GraphSimulation | null>(null);
  useLayoutEffect(() => {
    const layout = settleLayout(docs, links, simRef.current?.nodes() ?? [], height, narrow);
    simRef.current = layout.sim;
    layout.sim.on('tick', () => setFrame((f) => f + 1));
    setGraph({ nodes: layout.nodes, edges: layout.edges });
    return () => {
      layout.sim.on('tick', null).stop();
    };
  }, [docs, links, height, narrow]);
  return { graph, simRef };
}
