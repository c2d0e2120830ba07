// Status banner. Errors are announced (role="alert"); a click anywhere on it can clear it.
import type { ReactNode } from 'react';

export interface BannerProps {
  tone?: 'error' | 'info' | 'success' | 'warning';
  children: ReactNode;
  /**
   * Clicking the banner (not just its close mark) calls this: the auth dialog's error banner
   * (docs/product.md#authentication-dialog).
   */
  onClick?: () => void;
  onDismiss?: () => void;
  className?: string;
}

const ICONS = { error: '!', info: 'i', success: '✓', warning: '⚠' } as const;

export function Banner({ tone = 'info', children, onClick, onDismiss, className }: BannerProps) {
  const classes = ['kb-banner', `kb-banner--${tone}`, onClick && 'kb-banner--clickable', className]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={classes}
      role={tone === 'error' ? 'alert' : 'status'}
      onClick={onClick}
      data-testid="banner"
    >
      <span className="kb-banner__icon" aria-hidden="true">
        {ICONS[tone]}
      </span>
      <div className="kb-banner__body">{children}</div>
      {onDismiss && (
        <button
          type="button"
          className="kb-banner__close"
          aria-label="Dismiss message"
          onClick={(e) => {
            e.stopPropagation();
            onDismiss();
          }}
        >
          ×
        </button>
      )}
    </div>
  );
}
