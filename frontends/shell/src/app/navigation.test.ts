import { describe, expect, it } from 'vitest';
import { NAV_ENTRIES, entriesFor, isActiveEntry, pageName } from './navigation.ts';

const entry = (label: string) => NAV_ENTRIES.find((e) => e.label === label)!;

describe('app shell navigation', () => {
  it('lists the docs/product.md#app-shell entries in order, then Observatory, and Users only for admins', () => {
    expect(entriesFor('user').map((e) => e.label)).toEqual([
      'Home',
      'Dashboard',
      'Process',
      'Inventory',
      'Documents',
      'Media',
      'Kaboodles',
      'Observatory',
      'About',
      'Resources',
    ]);
    expect(entriesFor('admin').map((e) => e.label)).toContain('Users');
    expect(entry('Media').to).toBe('/media-hub');
    expect(entry('Home').to).toBe('/');
  });

  it('highlights exactly the current entry', () => {
    expect(isActiveEntry(entry('Home'), '/')).toBe(true);
    expect(isActiveEntry(entry('Home'), '/dashboard')).toBe(false);
    expect(isActiveEntry(entry('Inventory'), '/inventory/42')).toBe(true);
    expect(isActiveEntry(entry('Process'), '/upload')).toBe(true);
    expect(isActiveEntry(entry('Dashboard'), '/dashboards')).toBe(false);
  });

  it('names every page in the header, not "Kaboodle" or its neighbour', () => {
    expect(
      [
        '/dashboard',
        '/search',
        '/documents',
        '/kaboodles/7',
        '/inventory/3',
        '/profile',
        '/settings',
        '/about',
      ].map((p) => pageName(p)),
    ).toEqual(['Dashboard', 'Search', 'Documents', 'Kaboodles', 'Inventory', 'Profile', 'Settings', 'About']);
    expect(pageName('/activity')).toBe('Activity');
    expect(pageName('/admin/users')).toBe('Users');
    expect(pageName('/no/such/page')).toBe('Page not found');
  });
});
