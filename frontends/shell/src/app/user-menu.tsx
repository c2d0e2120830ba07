// Header user menu (docs/product.md#app-shell): initial + name (fallback email, then "User"); the dropdown
// shows the name (fallback "Anonymous User") and email (fallback "No email"), Settings, Profile, Help, Sign
// Out.
import { useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { SessionUser } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { useShellActions } from './shell-actions.tsx';

export function buttonLabel(user: Pick<SessionUser, 'name' | 'email'> | null): string {
  return user?.name?.trim() || user?.email?.trim() || 'User';
}

export function UserMenu() {
  const { user, logout } = useSession();
  const { openHelp } = useShellActions();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const label = buttonLabel(user);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        trigger.current?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const choose = (action: () => void) => () => {
    setOpen(false);
    action();
  };

  const onMenuKey = (e: ReactKeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const items = Array.from(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLElement);
    const next = e.key === 'ArrowDown' ? (i + 1) % items.length : (i - 1 + items.length) % items.length;
    items[next]?.focus();
  };

  return (
    <div className="kb-user-menu" ref={root}>
      <button
        ref={trigger}
        type="button"
        className="kb-user-menu__trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="kb-avatar" aria-hidden="true">
          {label.charAt(0).toUpperCase()}
        </span>
        <span className="kb-user-menu__name">{label}</span>
        <span aria-hidden="true" className="kb-user-menu__caret">
          ▾
        </span>
      </button>
      {open && (
        <div
          className="kb-user-menu__dropdown kb-frame"
          id={menuId}
          role="menu"
          aria-label="User menu"
          onKeyDown={onMenuKey}
        >
          <div className="kb-user-menu__who">
            <strong>{user?.name?.trim() || 'Anonymous User'}</strong>
            <span>{user?.email?.trim() || 'No email'}</span>
          </div>
          <button type="button" role="menuitem" onClick={choose(() => void navigate('/settings'))}>
            Settings
          </button>
          <button type="button" role="menuitem" onClick={choose(() => void navigate('/profile'))}>
            Profile
          </button>
          <button type="button" role="menuitem" onClick={choose(openHelp)}>
            Help
          </button>
          <button
            type="button"
            role="menuitem"
            className="kb-user-menu__signout"
            onClick={choose(() => {
              void logout().then(() => navigate('/', { replace: true }));
            })}
          >
            Sign Out
          </button>
        </div>
      )}
    </div>
  );
}
