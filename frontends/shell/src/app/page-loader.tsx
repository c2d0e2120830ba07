// Screens built in src/pages/, each lazily loaded into its own chunk so the first load stays small.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type PageName =
  | 'landing-page'
  | 'about-page'
  | 'resources-page'
  | 'terms-page'
  | 'not-found-page'
  | 'test-clockwork-page'
  | 'profile-page'
  | 'settings-page'
  | 'admin-users-page'
  | 'verify-email-page'
  | 'reset-password-page';

type PageModule = { default: ComponentType };

const importers: Record<PageName, () => Promise<PageModule>> = {
  'landing-page': () => import('../pages/landing-page.tsx'),
  'about-page': () => import('../pages/about-page.tsx'),
  'resources-page': () => import('../pages/resources-page.tsx'),
  'terms-page': () => import('../pages/terms-page.tsx'),
  'not-found-page': () => import('../pages/not-found-page.tsx'),
  'test-clockwork-page': () => import('../pages/test-clockwork-page.tsx'),
  'profile-page': () => import('../pages/profile-page.tsx'),
  'settings-page': () => import('../pages/settings-page.tsx'),
  'admin-users-page': () => import('../pages/admin-users-page.tsx'),
  'verify-email-page': () => import('../pages/verify-email-page.tsx'),
  'reset-password-page': () => import('../pages/reset-password-page.tsx'),
};

const cache = new Map<PageName, LazyExoticComponent<ComponentType>>();

export function page(name: PageName): LazyExoticComponent<ComponentType> {
  let component = cache.get(name);
  if (!component) {
    component = lazy(importers[name]);
    cache.set(name, component);
  }
  return component;
}
