// What surrounds the graph canvas: the legend whose boxes switch link kinds on and off, the zoom
// buttons, and under it the category colours and a line that says what the pointer is on.
import { Button } from '@kaboodle/kit';
import { LINK_KINDS, type GraphLink, type LinkKind } from '../../graph-links.ts';
import type { GraphNode } from './graph-layout.ts';

export function GraphBar({
  links,
  enabled,
  onToggle,
  onZoom,
  onFit,
}: {
  links: readonly GraphLink[];
  enabled: ReadonlySet<LinkKind>;
  onToggle: (kind: LinkKind) => void;
  onZoom: (factor: number) => void;
  onFit: () => void;
}) {
  return (
    <div className="kb-graph__bar">
      <fieldset className="kb-graph__legend">
        <legend>Links</legend>
        {LINK_KINDS.map((k) => (
          <label key={k.kind} className="kb-graph__toggle">
            <input type="checkbox" checked={enabled.has(k.kind)} onChange={() => onToggle(k.kind)} />
            <span className="kb-graph__swatch" style={{ background: k.color }} aria-hidden="true" />
            {k.label} ({links.filter((l) => l.kinds.includes(k.kind)).length})
          </label>
        ))}
      </fieldset>
      <div className="kb-graph__zoom" role="group" aria-label="Zoom">
        <Button size="sm" variant="ghost" onClick={() => onZoom(1.25)} aria-label="Zoom in">
          +
        </Button>
        <Button size="sm" variant="ghost" onClick={() => onZoom(0.8)} aria-label="Zoom out">
          −
        </Button>
        <Button size="sm" variant="ghost" onClick={onFit}>
          Fit
        </Button>
      </div>
    </div>
  );
}

export function GraphFoot({
  categories,
  colorOf,
  hovered,
  linkedCount,
}: {
  categories: readonly string[];
  colorOf: (category: string) => string;
  hovered: GraphNode | undefined;
  linkedCount: number;
}) {
  return (
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
          ? `${hovered.doc.title || 'Untitled'}: ${linkedCount} linked document(s). Click to open.`
          : 'Scroll or use the buttons to zoom, drag the background to pan, drag a document to move it, click it to open.'}
      </p>
    </div>
  );
}
