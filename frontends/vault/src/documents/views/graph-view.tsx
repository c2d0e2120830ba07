// Graph view (docs/product.md#document-vault): documents as nodes, linked by shared hashtags, authors,
// influences and vector similarity (POST /api/search/neighbours). Force layout with d3-force, drawn in SVG;
// wheel or the buttons zoom, dragging the background pans, dragging a node moves it, clicking opens it.
// Loaded lazily: d3-force ships only with this view. On a narrow screen the canvas turns portrait and nodes
// and labels keep a readable size in screen pixels whatever the scale; the graph is also offered as a list
// (its text equivalent).
import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import {
  forceCenter,
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  forceX,
  forceY,
  type Simulation,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from 'd3-force';
import { Button } from '@kaboodle/kit';
import type { VaultDocument } from '../document-types.ts';
import { fetchNeighbours, type SimilarityEdge } from '../documents-api.ts';
import {
  buildGraphLinks,
  degrees,
  LINK_KINDS,
  shortLabel,
  type GraphLink,
  type LinkKind,
} from '../graph-links.ts';
import { GraphList } from './graph-list.tsx';

interface Node extends SimulationNodeDatum {
  id: string;
  doc: VaultDocument;
  r: number;
}
interface Edge extends SimulationLinkDatum<Node> {
  link: GraphLink;
}

const WIDTH = 1000;
const HEIGHT = 640;
/** Below this canvas width (px) the graph is laid out portrait, as tall as it is wide and more. */
const NARROW_PX = 640;
const NARROW_HEIGHT = 1300;
/** A small graph's fit on a phone may magnify this much (labels stay their size: they do not overlap). */
const NARROW_MAX_ZOOM = 3;
/** Smallest on-screen sizes (px), whatever the zoom and the screen. */
const LABEL_MIN_PX = 11;
const LABEL_MAX_PX = 16;
const CATEGORY_COLORS = [
  '#2ee6d6',
  '#f5c542',
  '#ff4fd8',
  '#8b5cf6',
  '#4ef0a0',
  '#ffb347',
  '#5ab0ff',
  '#ff5a7a',
];

/**
 * The pan and zoom that frame these nodes in the canvas, magnified at most `maxK` times. A phone's
 * canvas is drawn about a third of its size, so a small graph may be magnified more there: its nodes
 * and labels keep their size in screen pixels, only the spaces between them grow.
 */
export function fitView(
  nodes: readonly { x?: number | undefined; y?: number | undefined; r: number }[],
  height = HEIGHT,
  maxK = 1.5,
) {
  if (nodes.length === 0) return { x: 0, y: 0, k: 1 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const n of nodes) {
    const x = n.x ?? 0;
    const y = n.y ?? 0;
    minX = Math.min(minX, x - n.r);
    maxX = Math.max(maxX, x + n.r);
    minY = Math.min(minY, y - n.r);
    maxY = Math.max(maxY, y + n.r + 16); // room for the label
  }
  const pad = 40;
  const k = Math.min(
    maxK,
    (WIDTH - 2 * pad) / Math.max(1, maxX - minX),
    (height - 2 * pad) / Math.max(1, maxY - minY),
  );
  return { k, x: WIDTH / 2 - ((minX + maxX) / 2) * k, y: height / 2 - ((minY + maxY) / 2) * k };
}

export interface GraphViewProps {
  docs: VaultDocument[];
  onOpen: (doc: VaultDocument) => void;
}

export default function GraphView({ docs, onOpen }: GraphViewProps) {
  const [enabled, setEnabled] = useState<Set<LinkKind>>(() => new Set(LINK_KINDS.map((k) => k.kind)));
  const [similarity, setSimilarity] = useState<SimilarityEdge[]>([]);
  const [view, setView] = useState({ x: 0, y: 0, k: 1 });
  const [, setFrame] = useState(0);
  const [hover, setHover] = useState<string | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const simRef = useRef<Simulation<Node, Edge> | null>(null);
  const [boxWidth, setBoxWidth] = useState(WIDTH);
  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    const measure = () => setBoxWidth(el.clientWidth || WIDTH);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const narrow = boxWidth < NARROW_PX;
  const height = narrow ? NARROW_HEIGHT : HEIGHT;
  /** Screen pixels per graph unit at zoom 1. */
  const unitPx = boxWidth / WIDTH;
  const idsKey = docs.map((d) => d.id).join(',');

  useEffect(() => {
    const controller = new AbortController();
    fetchNeighbours(
      docs.map((d) => d.id),
      controller.signal,
    )
      .then(setSimilarity)
      .catch((err: unknown) => {
        if (!controller.signal.aborted) console.warn('Loading the similarity links failed', err);
      });
    return () => controller.abort();
  }, [idsKey]);

  const links = useMemo(() => buildGraphLinks(docs, similarity, enabled), [docs, similarity, enabled]);
  const categories = useMemo(() => [...new Set(docs.map((d) => d.category).filter(Boolean))].sort(), [docs]);
  const colorOf = (category: string) => {
    const i = categories.indexOf(category);
    return i === -1 ? '#a3a8c3' : CATEGORY_COLORS[i % CATEGORY_COLORS.length]!;
  };

  // Layout: settle the simulation synchronously (no jitter on screen), then keep it for dragging.
  const graph = useMemo(() => {
    const deg = degrees(links);
    const previous = new Map(simRef.current?.nodes().map((n) => [n.id, n]) ?? []);
    const nodes: Node[] = docs.map((doc) => {
      const old = previous.get(doc.id);
      return {
        id: doc.id,
        doc,
        r: 6 + Math.min(9, 1.2 * Math.sqrt(deg.get(doc.id) ?? 0)),
        x: old?.x,
        y: old?.y,
      } as Node;
    });
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const edges: Edge[] = links.map((link) => ({
      source: byId.get(link.source)!,
      target: byId.get(link.target)!,
      link,
    }));
    simRef.current?.stop();
    const sim = forceSimulation(nodes)
      .force(
        'link',
        forceLink<Node, Edge>(edges)
          .id((n) => n.id)
          .distance((e) => (e.link.kinds.includes('author') ? 70 : 120))
          .strength((e) => Math.min(0.6, 0.05 + 0.1 * e.link.kinds.length)),
      )
      .force('charge', forceManyBody().strength(nodes.length > 150 ? -90 : -320))
      .force('center', forceCenter(WIDTH / 2, height / 2))
      .force('x', forceX(WIDTH / 2).strength(narrow ? 0.08 : 0.04))
      .force('y', forceY(height / 2).strength(narrow ? 0.02 : 0.06))
      .force(
        'collide',
        forceCollide<Node>((n) => n.r + 4),
      )
      .stop();
    sim.tick(nodes.length > 300 ? 120 : 300);
    sim.on('tick', () => setFrame((f) => f + 1));
    simRef.current = sim;
    return { nodes, edges };
  }, [docs, links, height, narrow]);

  // Frame the settled layout: every node in view, at most 1.5× magnified (3× on a phone).
  const fit = () => setView(fitView(graph.nodes, height, narrow ? NARROW_MAX_ZOOM : 1.5));
  useEffect(fit, [graph]);

  useEffect(
    () => () => {
      simRef.current?.stop();
    },
    [],
  );

  // Pointer handling: drag a node, or pan the canvas; a press without movement on a node opens it.
  const drag = useRef<{
    kind: 'pan' | 'node';
    node?: Node;
    startX: number;
    startY: number;
    ox: number;
    oy: number;
    moved: boolean;
  } | null>(null);
  const toGraph = (clientX: number, clientY: number) => {
    const rect = svgRef.current!.getBoundingClientRect();
    const sx = ((clientX - rect.left) / rect.width) * WIDTH;
    const sy = ((clientY - rect.top) / rect.height) * height;
    return { x: (sx - view.x) / view.k, y: (sy - view.y) / view.k };
  };
  const onPointerDown = (e: ReactPointerEvent, node?: Node) => {
    (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
    e.stopPropagation();
    drag.current = node
      ? { kind: 'node', node, startX: e.clientX, startY: e.clientY, ox: 0, oy: 0, moved: false }
      : { kind: 'pan', startX: e.clientX, startY: e.clientY, ox: view.x, oy: view.y, moved: false };
  };
  const onPointerMove = (e: ReactPointerEvent) => {
    const d = drag.current;
    if (!d) return;
    if (Math.abs(e.clientX - d.startX) + Math.abs(e.clientY - d.startY) > 4) d.moved = true;
    if (!d.moved) return;
    if (d.kind === 'node' && d.node) {
      const p = toGraph(e.clientX, e.clientY);
      d.node.fx = p.x;
      d.node.fy = p.y;
      simRef.current?.alphaTarget(0.2).restart();
    } else {
      const rect = svgRef.current!.getBoundingClientRect();
      const f = WIDTH / rect.width;
      setView((v) => ({ ...v, x: d.ox + (e.clientX - d.startX) * f, y: d.oy + (e.clientY - d.startY) * f }));
    }
  };
  const onPointerUp = () => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    if (d.kind === 'node' && d.node) {
      simRef.current?.alphaTarget(0);
      if (!d.moved) onOpen(d.node.doc);
    }
  };
  const zoomBy = (factor: number, cx = WIDTH / 2, cy = height / 2) =>
    setView((v) => {
      const k = Math.max(0.2, Math.min(5, v.k * factor));
      const f = k / v.k;
      return { k, x: cx - (cx - v.x) * f, y: cy - (cy - v.y) * f };
    });
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    // A non-passive listener, so the wheel zooms the graph instead of scrolling the page.
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = svg.getBoundingClientRect();
      zoomBy(
        Math.exp(-e.deltaY * 0.0015),
        ((e.clientX - rect.left) / rect.width) * WIDTH,
        ((e.clientY - rect.top) / rect.height) * height,
      );
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, [height]);

  const toggle = (kind: LinkKind) =>
    setEnabled((s) => {
      const next = new Set(s);
      if (next.has(kind)) next.delete(kind);
      else next.add(kind);
      return next;
    });
  const hovered = hover ? graph.nodes.find((n) => n.id === hover) : undefined;
  // Sizes in graph units that come out readable on screen: labels 11–16 px, nodes at least 80 %
  // of their nominal pixel size (a phone shows the 1000-unit canvas at about a third of its size).
  const screenScale = Math.max(0.01, unitPx * view.k);
  const labelUnits = Math.min(LABEL_MAX_PX, Math.max(LABEL_MIN_PX, 11 * Math.sqrt(view.k))) / screenScale;
  const radiusUnits = (r: number) => Math.max(r, (0.8 * r) / screenScale);
  const neighbours = new Set(
    hover
      ? links.flatMap((l) => (l.source === hover ? [l.target] : l.target === hover ? [l.source] : []))
      : [],
  );

  return (
    <div className="kb-graph">
      <div className="kb-graph__bar">
        <fieldset className="kb-graph__legend">
          <legend>Links</legend>
          {LINK_KINDS.map((k) => (
            <label key={k.kind} className="kb-graph__toggle">
              <input type="checkbox" checked={enabled.has(k.kind)} onChange={() => toggle(k.kind)} />
              <span className="kb-graph__swatch" style={{ background: k.color }} aria-hidden="true" />
              {k.label} ({links.filter((l) => l.kinds.includes(k.kind)).length})
            </label>
          ))}
        </fieldset>
        <div className="kb-graph__zoom" role="group" aria-label="Zoom">
          <Button size="sm" variant="ghost" onClick={() => zoomBy(1.25)} aria-label="Zoom in">
            +
          </Button>
          <Button size="sm" variant="ghost" onClick={() => zoomBy(0.8)} aria-label="Zoom out">
            −
          </Button>
          <Button size="sm" variant="ghost" onClick={fit}>
            Fit
          </Button>
        </div>
      </div>
      <div ref={boxRef} className="kb-graph__box">
        <svg
          ref={svgRef}
          className="kb-graph__canvas"
          viewBox={`0 0 ${WIDTH} ${height}`}
          style={{ aspectRatio: `${WIDTH} / ${height}` }}
          role="group"
          aria-label={`Document graph: ${graph.nodes.length} documents, ${links.length} links`}
          onPointerDown={(e) => onPointerDown(e)}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          data-testid="document-graph"
        >
          <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
            <g className="kb-graph__links">
              {graph.edges.map((e) => {
                const s = e.source as Node;
                const t = e.target as Node;
                const kind = LINK_KINDS.find((k) => e.link.kinds.includes(k.kind));
                const dim = hover !== null && s.id !== hover && t.id !== hover;
                return (
                  <line
                    key={`${s.id}-${t.id}`}
                    x1={s.x}
                    y1={s.y}
                    x2={t.x}
                    y2={t.y}
                    stroke={kind?.color ?? '#888'}
                    strokeWidth={1 + e.link.kinds.length * 0.8}
                    strokeOpacity={dim ? 0.08 : 0.55}
                    strokeDasharray={
                      e.link.kinds.length === 1 && e.link.kinds[0] === 'similarity' ? '4 3' : undefined
                    }
                  >
                    <title>{e.link.reasons.join(', ')}</title>
                  </line>
                );
              })}
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
                    onPointerDown={(e) => onPointerDown(e, n)}
                    onPointerEnter={() => setHover(n.id)}
                    onPointerLeave={() => setHover((h) => (h === n.id ? null : h))}
                    onFocus={() => setHover(n.id)}
                    onBlur={() => setHover(null)}
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
      </div>
      <div className="kb-graph__foot">
        <ul className="kb-graph__categories" aria-label="Categories">
          {categories.map((c) => (
            <li key={c}>
              <span
                className="kb-graph__swatch kb-graph__swatch--round"
                style={{ background: colorOf(c) }}
                aria-hidden="true"
              />
              {c}
            </li>
          ))}
        </ul>
        <p className="kb-muted" aria-live="polite">
          {hovered
            ? `${hovered.doc.title || 'Untitled'}: ${neighbours.size} linked document(s). Click to open.`
            : 'Scroll or use the buttons to zoom, drag the background to pan, drag a document to move it, click it to open.'}
        </p>
      </div>
      <GraphList docs={docs} links={links} onOpen={onOpen} />
    </div>
  );
}
