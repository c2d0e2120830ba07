// Modal dialog: labelled by its title, focus trapped inside, Escape and a backdrop click close it,
// focus returns to whatever opened it.
import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Card max width in px (the auth dialog uses 480: docs/product.md#limits). */
  maxWidth?: number;
  className?: string;
  /** Hide the visible title (it still labels the dialog for assistive technology). */
  hideTitle?: boolean;
  closeLabel?: string;
  /** Which element receives focus on open; defaults to the first focusable one. */
  initialFocus?: () => HTMLElement | null | undefined;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function focusableWithin(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('inert') && el.getAttribute('aria-hidden') !== 'true',
  );
}

export function Dialog({
  open,
  onClose,
  title,
  children,
  maxWidth,
  className,
  hideTitle = false,
  closeLabel = 'Close',
  initialFocus,
}: DialogProps) {
  const titleId = useId();
  const cardRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  // Read once per opening, when the dialog opens, whatever the caller passes on later renders.
  const initialTarget = useEffectEvent(() => initialFocus?.());

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const card = cardRef.current;
    const target = initialTarget() ?? (card ? focusableWithin(card)[0] : null) ?? card;
    target?.focus();

    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (e.key !== 'Tab' || !card) return;
      const items = focusableWithin(card);
      if (items.length === 0) {
        e.preventDefault();
        card.focus();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const active = document.activeElement;
      if (e.shiftKey && (active === first || !card.contains(active))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (active === last || !card.contains(active))) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.body.style.overflow = overflow;
      opener?.focus?.();
    };
  }, [open]);

  if (!open) return null;
  return createPortal(
    <div
      className="kb-dialog-backdrop"
      data-testid="dialog-backdrop"
      onMouseDown={(e) => {
        // Only a press that starts on the backdrop itself closes (not a drag out of a text field).
        if (e.target === e.currentTarget) onCloseRef.current();
      }}
    >
      <div
        ref={cardRef}
        className={['kb-dialog', 'kb-frame', className].filter(Boolean).join(' ')}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        style={maxWidth ? { maxWidth } : undefined}
      >
        <div className="kb-dialog__header">
          <h2 id={titleId} className={hideTitle ? 'kb-visually-hidden' : 'kb-dialog__title'}>
            {title}
          </h2>
          <button
            type="button"
            className="kb-icon-button kb-dialog__close"
            aria-label={closeLabel}
            onClick={() => onCloseRef.current()}
          >
            ×
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
