// What the browser keeps between visits (docs/product.md#data): user, token, auth_token and auth_session.
import { STORAGE_KEYS } from './api-client.ts';
import type { KeyValueStorage } from './api-cache.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  displayName?: string;
  role: 'user' | 'admin';
  created_at?: string;
  /** When the address was verified; null: not yet (absent: a server that does not say). */
  email_verified_at?: string | null;
  /** A new address waiting for its verification link. */
  pending_email?: string | null;
}

function storage(): KeyValueStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** Accepts only a user-shaped object, so a tampered or stale entry is ignored, not trusted. */
export function asSessionUser(value: unknown): SessionUser | null {
  if (!value || typeof value !== 'object') return null;
  const u = value as Record<string, unknown>;
  if (typeof u.id !== 'string' && typeof u.id !== 'number') return null;
  if (typeof u.email !== 'string') return null;
  return {
    id: String(u.id),
    email: u.email,
    name: typeof u.name === 'string' ? u.name : '',
    ...(typeof u.displayName === 'string' ? { displayName: u.displayName } : {}),
    role: u.role === 'admin' ? 'admin' : 'user',
    ...(typeof u.created_at === 'string' ? { created_at: u.created_at } : {}),
    ...(typeof u.email_verified_at === 'string' || u.email_verified_at === null
      ? { email_verified_at: u.email_verified_at }
      : {}),
    ...(typeof u.pending_email === 'string' || u.pending_email === null
      ? { pending_email: u.pending_email }
      : {}),
  };
}

export function saveAuth(user: SessionUser, token?: string, store = storage()): void {
  if (!store) return;
  try {
    store.setItem(STORAGE_KEYS.user, JSON.stringify(user));
    store.setItem(STORAGE_KEYS.session, JSON.stringify({ userId: user.id, since: new Date().toISOString() }));
    if (token) {
      store.setItem(STORAGE_KEYS.token, token);
      store.setItem(STORAGE_KEYS.authToken, token);
    }
  } catch (err) {
    console.warn('Saving the session locally failed', err);
  }
}

export function clearAuth(store = storage()): void {
  if (!store) return;
  for (const key of Object.values(STORAGE_KEYS)) {
    try {
      store.removeItem(key);
    } catch {
      // nothing more to do: the server-side session is what counts
    }
  }
}

export function readStoredUser(store = storage()): SessionUser | null {
  try {
    const raw = store?.getItem(STORAGE_KEYS.user);
    return raw ? asSessionUser(JSON.parse(raw)) : null;
  } catch {
    return null;
  }
}
