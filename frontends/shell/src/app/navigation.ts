// The app shell's left navigation (docs/product.md#app-shell): Observatory for everyone, Users for admins;
// and the name of the page the header shows, for every route (not only those in the navigation).
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

/** Pages whose own name differs from the navigation entry they belong to, or that have none. */
const PAGE_NAMES: readonly { path: string; name: string }[] = [
  { path: '/search', name: 'Search' },
  { path: '/upload', name: 'Process' },
  { path: '/home', name: 'Dashboard' },
  { path: '/activity', name: 'Activity' },
  { path: '/profile', name: 'Profile' },
  { path: '/settings', name: 'Settings' },
  { path: '/terms', name: 'Terms' },
  { path: '/verify-email', name: 'Verify email' },
  { path: '/reset-password', name: 'Reset password' },
  { path: '/test-clockwork', name: 'Clockwork bench' },
];

/** What the header calls the page at this path: its own name, else its navigation entry's label. */
export function pageName(pathname: string, entries: readonly NavEntry[] = NAV_ENTRIES): string {
  const own = PAGE_NAMES.find((p) => pathname === p.path || pathname.startsWith(`${p.path}/`));
  if (own) return own.name;
  const entry = entries.find((e) => e.to !== '/' && isActiveEntry(e, pathname));
  if (entry) return entry.label;
  return pathname === '/' ? 'Home' : 'Page not found';
}
