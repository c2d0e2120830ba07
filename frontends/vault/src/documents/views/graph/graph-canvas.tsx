// The graph drawn in SVG: links as lines (dashed when only similar), documents as coloured dots with
// their labels. Nodes and labels keep a readable size in screen pixels whatever the zoom and the screen.
import { LINK_KINDS, shortLabel, type GraphLink } from '../../graph-links.ts';
import type { VaultDocument } from '../../document-types.ts';
import {
  LABEL_MAX_PX,
  LABEL_MIN_PX,
  WIDTH,
  type GraphEdge,
  type GraphLayout,
  type GraphNode,
} from './graph-layout.ts';
import type { GraphViewport } from './use-graph-viewport.ts';

export interface GraphCanvasProps {
  graph: GraphLayout;
  links: readonly GraphLink[];
  viewport: GraphViewport;
  height: number;
  /** Screen pixels per graph unit at zoom 1. */
  unitPx: number;
  hover: string | null;
  neighbours: ReadonlySet<string>;
  onHover: (update: (current: string | null) => string | null) => void;
  colorOf: (category: string) => string;
  onOpen: (doc: VaultDocument) => void;
}

function GraphLine({ edge, hover }: { edge: GraphEdge; hover: string | null }) {
  const s = edge.source as GraphNode;
  const t = edge.target as GraphNode;
  const kind = LINK_KINDS.find((k) => edge.link.kinds.includes(k.kind));
  const dim = hover !== null && s.id !== hover && t.id !== hover;
  return (
    <line
      x1={s.x}
      y1={s.y}
      x2={t.x}
      y2={t.y}
      stroke={kind?.color ?? '#888'}
      strokeWidth={1 + edge.link.kinds.length * 0.8}
      strokeOpacity={dim ? 0.08 : 0.55}
      strokeDasharray={
        edge.link.kinds.length === 1 && edge.link.kinds[0] === 'similarity' ? '4 3' : undefined
      }
    >
      <title>{edge.link.reasons.join(', ')}</title>
    </line>
  );
}

export function GraphCanvas(props: GraphCanvasProps) {
  const { graph, links, viewport, height, unitPx, hover, neighbours, onHover, colorOf, onOpen } = props;
  const { view } = viewport;
  // Sizes in graph units that come out readable on screen: labels 11–16 px, nodes at least 80 %
  // of their nominal pixel size (a phone shows the 1000-unit canvas at about a third of its size).
  const screenScale = Math.max(0.01, unitPx * view.k);
  const labelUnits = Math.min(LABEL_MAX_PX, Math.max(LABEL_MIN_PX, 11 * Math.sqrt(view.k))) / screenScale;
  const radiusUnits = (r: number) => Math.max(r, (0.8 * r) / screenScale);

  return (
    <svg
      ref={viewport.svgRef}
      className="kb-graph__canvas"
      viewBox={`0 0 ${WIDTH} ${height}`}
      style={{ aspectRatio: `${WIDTH} / ${height}` }}
      role="group"
      aria-label={`Document graph: ${graph.nodes.length} documents, ${links.length} links`}
      onPointerDown={(e) => viewport.onPointerDown(e)}
      onPointerMove={viewport.onPointerMove}
      onPointerUp={viewport.onPointerUp}
      onPointerCancel={viewport.onPointerUp}
      data-testid="document-graph"
    >
      <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
        <g className="kb-graph__links">
          {graph.edges.map((e) => (
            <GraphLine
              key={`${(e.source as GraphNode).id}-${(e.target as GraphNode).id}`}
              edge={e}
              hover={hover}
            />
          ))}
        </g>
        <g className="kb-graph__nodes">
          {graph.nodes.map((n) => {
            const dim = hover !== null && n.id !== hover && !neighbours.has(n.id);
            const title = n.doc.title || n.doc.file_name || 'Untitled';
            return (
              <g
                key={n.id}
                className="kb-graph__node"
                transform={`translate(${n.x ?? 0} ${n.y ?? 0})`}
                opacity={dim ? 0.25 : 1}
                role="button"
                tabIndex={0}
                aria-label={`${title}${n.doc.author ? ` by ${n.doc.author}` : ''}`}
                onPointerDown={(e) => viewport.onPointerDown(e, n)}
                onPointerEnter={() => onHover(() => n.id)}
                onPointerLeave={() => onHover((h) => (h === n.id ? null : h))}
                onFocus={() => onHover(() => n.id)}
                onBlur={() => onHover(() => null)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    onOpen(n.doc);
                  }
                }}
                data-testid="graph-node"
              >
                <circle
                  r={radiusUnits(n.r)}
                  fill={colorOf(n.doc.category)}
                  stroke="#07080f"
                  strokeWidth={2 / screenScale}
                />
                {(graph.nodes.length <= 30 || n.id === hover) && (
                  <text
                    y={radiusUnits(n.r) + labelUnits * 1.15}
                    textAnchor="middle"
                    className="kb-graph__label"
                    // Labels stay readable, not huge, whatever the zoom and the screen.
                    fontSize={labelUnits}
                  >
                    {shortLabel(title)}
                  </text>
                )}
              </g>
            );
          })}
        </g>
      </g>
    </svg>
  );
}
