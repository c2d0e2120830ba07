// What the shell hands every federated remote's `./App` (remotes cannot import the shell itself).
import type { SessionUser } from './api/auth-storage.ts';

export interface RemoteAppProps {
  /** The signed-in user (protected routes only render for one), or null in standalone dev. */
  user: SessionUser | null;
  /** Opens the shell's "How to Use Kaboodle" dialog. */
  openHelp: () => void;
}

/** The display name used across the product: name, then email, then the given fallback. */
export function displayNameOf(
  user: Pick<SessionUser, 'name' | 'email' | 'displayName'> | null | undefined,
  fallback: string,
): string {
  return user?.displayName?.trim() || user?.name?.trim() || user?.email?.trim() || fallback;
}
