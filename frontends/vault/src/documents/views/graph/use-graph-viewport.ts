// The graph canvas's pan and zoom: the canvas's own width (portrait on a narrow screen), framing the
// settled layout, the wheel and the buttons zooming, and the pointer dragging a node or the canvas.
// A press on a node without movement opens its document.
import {
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
} from 'react';
import type { VaultDocument } from '../../document-types.ts';
import {
  fitView,
  HEIGHT,
  NARROW_HEIGHT,
  NARROW_MAX_ZOOM,
  NARROW_PX,
  WIDTH,
  type GraphLayout,
  type GraphNode,
  type GraphSimulation,
  type ViewBox,
} from './graph-layout.ts';

/** The canvas box's width in px, kept up to date as the window changes. */
export function useBoxWidth() {
  const boxRef = useRef<HTMLDivElement>(null);
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
  return { boxRef, boxWidth, narrow, height: narrow ? NARROW_HEIGHT : HEIGHT };
}

interface Drag {
  kind: 'pan' | 'node';
  node?: GraphNode;
  startX: number;
  startY: number;
  ox: number;
  oy: number;
  moved: boolean;
}

export interface GraphViewport {
  view: ViewBox;
  svgRef: RefObject<SVGSVGElement | null>;
  fit: () => void;
  zoomBy: (factor: number) => void;
  onPointerDown: (e: ReactPointerEvent, node?: GraphNode) => void;
  onPointerMove: (e: ReactPointerEvent) => void;
  onPointerUp: () => void;
}

export function useGraphViewport({
  graph,
  simRef,
  height,
  narrow,
  onOpen,
}: {
  graph: GraphLayout;
  simRef: RefObject<GraphSimulation | null>;
  height: number;
  narrow: boolean;
  onOpen: (doc: VaultDocument) => void;
}): GraphViewport {
  const [view, setView] = useState<ViewBox>({ x: 0, y: 0, k: 1 });
  const svgRef = useRef<SVGSVGElement>(null);
  const drag = useRef<Drag | null>(null);

  // Frame the settled layout: every node in view, at most 1.5× magnified (3× on a phone).
  const fit = () => setView(fitView(graph.nodes, height, narrow ? NARROW_MAX_ZOOM : 1.5));
  // Once per new layout, not when the canvas's size alone changes (a new size brings a new layout).
  const fitNewLayout = useEffectEvent(fit);
  useEffect(() => fitNewLayout(), [graph]);

  const zoomBy = (factor: number, cx = WIDTH / 2, cy = height / 2) =>
    setView((v) => {
      const k = Math.max(0.2, Math.min(5, v.k * factor));
      const f = k / v.k;
      return { k, x: cx - (cx - v.x) * f, y: cy - (cy - v.y) * f };
    });

  // Zooms about the pointer, with the canvas's current height.
  const wheelZoom = useEffectEvent((e: WheelEvent, svg: SVGSVGElement) => {
    const rect = svg.getBoundingClientRect();
    zoomBy(
      Math.exp(-e.deltaY * 0.0015),
      ((e.clientX - rect.left) / rect.width) * WIDTH,
      ((e.clientY - rect.top) / rect.height) * height,
    );
  });
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    // A non-passive listener, so the wheel zooms the graph instead of scrolling the page.
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      wheelZoom(e, svg);
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, []);

  const toGraph = (clientX: number, clientY: number) => {
    const rect = svgRef.current!.getBoundingClientRect();
    const sx = ((clientX - rect.left) / rect.width) * WIDTH;
    const sy = ((clientY - rect.top) / rect.height) * height;
    return { x: (sx - view.x) / view.k, y: (sy - view.y) / view.k };
  };
  const onPointerDown = (e: ReactPointerEvent, node?: GraphNode) => {
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

  return { view, svgRef, fit, zoomBy: (factor) => zoomBy(factor), onPointerDown, onPointerMove, onPointerUp };
}
