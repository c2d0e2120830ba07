// The graph view's geometry, free of React: canvas sizes, the force layout settled in one go, the
// pan and zoom that frame it, and the category colours.
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
import type { VaultDocument } from '../../document-types.ts';
import { degrees, type GraphLink } from '../../graph-links.ts';

export interface GraphNode extends SimulationNodeDatum {
  id: string;
  doc: VaultDocument;
  r: number;
}
export interface GraphEdge extends SimulationLinkDatum<GraphNode> {
  link: GraphLink;
}
export interface GraphLayout {
  nodes: GraphNode[];
  edges: GraphEdge[];
}
export type GraphSimulation = Simulation<GraphNode, GraphEdge>;
/** Pan (x, y in canvas units) and zoom (k). */
export interface ViewBox {
  x: number;
  y: number;
  k: number;
}

export const WIDTH = 1000;
export const HEIGHT = 640;
/** Below this canvas width (px) the graph is laid out portrait, as tall as it is wide and more. */
export const NARROW_PX = 640;
export const NARROW_HEIGHT = 1300;
/** A small graph's fit on a phone may magnify this much (labels stay their size: they do not overlap). */
export const NARROW_MAX_ZOOM = 3;
/** Smallest on-screen sizes (px), whatever the zoom and the screen. */
export const LABEL_MIN_PX = 11;
export const LABEL_MAX_PX = 16;
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

/** The colour of a category among the sorted categories on screen; grey for none. */
export function categoryColor(categories: readonly string[], category: string): string {
  const i = categories.indexOf(category);
  return i === -1 ? '#a3a8c3' : CATEGORY_COLORS[i % CATEGORY_COLORS.length]!;
}

/**
 * The pan and zoom that frame these nodes in the canvas, magnified at most `maxK` times. A phone's
 * canvas is drawn about a third of its size, so a small graph may be magnified more there: its nodes
 * and labels keep their size in screen pixels, only the spaces between them grow.
 */
export function fitView(
  nodes: readonly { x?: number | undefined; y?: number | undefined; r: number }[],
  height = HEIGHT,
  maxK = 1.5,
): ViewBox {
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

/**
 * Lays the documents out and settles the simulation synchronously (no jitter on screen). Nodes that
 * were already on screen start where they were. The simulation comes back stopped, kept for dragging.
 */
export function settleLayout(
  docs: readonly VaultDocument[],
  links: readonly GraphLink[],
  previous: readonly GraphNode[],
  height: number,
  narrow: boolean,
): GraphLayout & { sim: GraphSimulation } {
  const deg = degrees(links);
  const before = new Map(previous.map((n) => [n.id, n]));
  const nodes: GraphNode[] = docs.map((doc) => {
    const old = before.get(doc.id);
    return {
      id: doc.id,
      doc,
      r: 6 + Math.min(9, 1.2 * Math.sqrt(deg.get(doc.id) ?? 0)),
      x: old?.x,
      y: old?.y,
    } as GraphNode;
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges: GraphEdge[] = links.map((link) => ({
    source: byId.get(link.source)!,
    target: byId.get(link.target)!,
    link,
  }));
  const sim = forceSimulation(nodes)
    .force(
      'link',
      forceLink<GraphNode, GraphEdge>(edges)
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
      forceCollide<GraphNode>((n) => n.r + 4),
    )
    .stop();
  sim.tick(nodes.length > 300 ? 120 : 300);
  return { nodes, edges, sim };
}
