// Graph view (docs/product.md#document-vault): documents as nodes, linked by shared hashtags, authors,
// influences and vector similarity (POST /api/search/neighbours). Force layout with d3-force, drawn in SVG;
// wheel or the buttons zoom, dragging the background pans, dragging a node moves it, clicking opens it.
// Loaded lazily: d3-force ships only with this view. On a narrow screen the canvas turns portrait and nodes
// and labels keep a readable size in screen pixels whatever the scale; the graph is also offered as a list
// (its text equivalent). The data and the pointer live in hooks (graph/use-*.ts); this file composes.
import { useMemo, useState } from 'react';
import { Banner } from '@kaboodle/kit';
import type { VaultDocument } from '../document-types.ts';
import { GraphCanvas } from './graph/graph-canvas.tsx';
import { GraphBar, GraphFoot } from './graph/graph-controls.tsx';
import { categoryColor, WIDTH } from './graph/graph-layout.ts';
import { useGraphLayout, useGraphLinks, useSimilarityLinks } from './graph/use-graph-data.ts';
import { useBoxWidth, useGraphViewport } from './graph/use-graph-viewport.ts';
import { GraphList } from './graph-list.tsx';

export interface GraphViewProps {
  docs: VaultDocument[];
  onOpen: (doc: VaultDocument) => void;
}

export default function GraphView({ docs, onOpen }: GraphViewProps) {
  const similar = useSimilarityLinks(docs);
  const { links, enabled, toggle } = useGraphLinks(docs, similar.similarity);
  const { boxRef, boxWidth, narrow, height } = useBoxWidth();
  const { graph, simRef } = useGraphLayout(docs, links, height, narrow);
  const viewport = useGraphViewport({ graph, simRef, height, narrow, onOpen });
  const [hover, setHover] = useState<string | null>(null);

  const categories = useMemo(() => [...new Set(docs.map((d) => d.category).filter(Boolean))].sort(), [docs]);
  const colorOf = (category: string) => categoryColor(categories, category);
  const hovered = hover ? graph.nodes.find((n) => n.id === hover) : undefined;
  const neighbours = new Set(
    hover
      ? links.flatMap((l) => (l.source === hover ? [l.target] : l.target === hover ? [l.source] : []))
      : [],
  );

  return (
    <div className="kb-graph">
      {similar.error && (
        <Banner tone="error" onDismiss={similar.dismissError}>
          {similar.error}
        </Banner>
      )}
      <GraphBar
        links={links}
        enabled={enabled}
        onToggle={toggle}
        onZoom={viewport.zoomBy}
        onFit={viewport.fit}
      />
      <div ref={boxRef} className="kb-graph__box">
        <GraphCanvas
          graph={graph}
          links={links}
          viewport={viewport}
          height={height}
          unitPx={boxWidth / WIDTH}
          hover={hover}
          neighbours={neighbours}
          onHover={setHover}
          colorOf={colorOf}
          onOpen={onOpen}
        />
      </div>
      <GraphFoot categories={categories} colorOf={colorOf} hovered={hovered} linkedCount={neighbours.size} />
      <GraphList docs={docs} links={links} onOpen={onOpen} />
    </div>
  );
}
