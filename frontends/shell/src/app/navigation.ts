// The app shell's left navigation (docs/product.md#app-shell): Observatory for everyone, Users for admins.
export interface NavEntry {
  to: string;
  label: string;
  icon: string;
  /** Paths (besides `to`) under which this entry is the current one. */
  also?: string[];
  adminOnly?: boolean;
}

export const NAV_ENTRIES: readonly NavEntry[] = [
  { to: '/', label: 'Home', icon: '⌂' },
  { to: '/dashboard', label: 'Dashboard', icon: '◈', also: ['/home'] },
  { to: '/process', label: 'Process', icon: '⚙', also: ['/upload'] },
  { to: '/inventory', label: 'Inventory', icon: '▦' },
  { to: '/documents', label: 'Documents', icon: '❏', also: ['/search'] },
  { to: '/media-hub', label: 'Media', icon: '◫' },
  { to: '/kaboodles', label: 'Kaboodles', icon: '❖' },
  { to: '/observatory', label: 'Observatory', icon: '◉' },
  { to: '/about', label: 'About', icon: 'ℹ' },
  { to: '/resources', label: 'Resources', icon: '☰' },
  { to: '/admin/users', label: 'Users', icon: '♛', adminOnly: true },
];

/** Which entry is current: exact for Home, otherwise the path or anything below it. */
export function isActiveEntry(entry: NavEntry, pathname: string): boolean {
  const paths = [entry.to, ...(entry.also ?? [])];
  return paths.some((p) => (p === '/' ? pathname === '/' : pathname === p || pathname.startsWith(`${p}/`)));
}

export function entriesFor(role: 'user' | 'admin' | undefined): NavEntry[] {
  return NAV_ENTRIES.filter((e) => !e.adminOnly || role === 'admin');
}
