// One of the landing page's capability panels (docs/product.md#landing-page): a toggle with the badge,
// title and summary, and the details while open.
import { useId } from 'react';
import { DecoIcon } from '@kaboodle/kit';
import type { Capability } from './landing-capabilities.ts';

export interface CapabilityPanelProps {
  capability: Capability;
  open: boolean;
  onToggle: () => void;
}

export function CapabilityPanel({ capability, open, onToggle }: CapabilityPanelProps) {
  const bodyId = useId();
  return (
    <article className="kbp-panel" data-open={open} data-panel={capability.id} id={capability.id}>
      <h3>
        <button
          type="button"
          className="kbp-panel-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
        >
          <span className="kbp-badge" aria-hidden="true">
            <DecoIcon name={capability.icon} size={22} />
          </span>
          <span>
            <span className="kbp-panel-title">{capability.title}</span>
            <span className="kbp-panel-summary">{capability.description}</span>
          </span>
          <span className="kbp-chevron" aria-hidden="true">
            <svg
              width="14"
              height="14"
              viewBox="0 0 14 14"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
            >
              <path d="m3 5 4 4 4-4" />
            </svg>
          </span>
        </button>
      </h3>
      <div id={bodyId} className="kbp-panel-body" role="region" aria-label={capability.title} hidden={!open}>
        {open && (
          <ul className="kbp-details">
            {capability.details.map((d) => (
              <li key={d.title} className="kbp-detail">
                <DecoIcon name={d.icon} size={20} />
                <strong>{d.title}</strong>
                <span>{d.description}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </article>
  );
}
