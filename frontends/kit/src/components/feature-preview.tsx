// A screen whose feature lands in a later issue: its real heading, what it will do, and where to go now.
import type { ReactNode } from 'react';

export interface FeaturePreviewProps {
  eyebrow?: string;
  heading: string;
  description: ReactNode;
  /** What the screen will offer, one line each. */
  upcoming?: string[];
  actions?: ReactNode;
  children?: ReactNode;
}

export function FeaturePreview({
  eyebrow,
  heading,
  description,
  upcoming = [],
  actions,
  children,
}: FeaturePreviewProps) {
  return (
    <section className="kb-preview" aria-labelledby="kb-preview-heading">
      {eyebrow && <p className="kb-eyebrow">{eyebrow}</p>}
      <h1 id="kb-preview-heading">{heading}</h1>
      <div className="kb-preview__description">{description}</div>
      {children}
      {upcoming.length > 0 && (
        <div className="kb-frame kb-preview__card">
          <h2 className="kb-preview__card-title">Coming to this screen</h2>
          <ul className="kb-preview__list">
            {upcoming.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      {actions && <div className="kb-preview__actions">{actions}</div>}
    </section>
  );
}
