import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { IconName } from '../components/Icon';

export interface AreaRoute {
  path: string;
  label: string;
  icon: IconName;
  /** The page; an area without one is listed as "coming soon" and cannot be opened. */
  page?: LazyExoticComponent<ComponentType>;
}

/** Loads a feature's page (a named export) on first visit. */
const lazyPage = (load: () => Promise<ComponentType>) => lazy(() => load().then((Page) => ({ default: Page })));

/**
 * The route table: every area in sidebar order. Adding a page is one line here, e.g.
 * `page: lazyPage(() => import('../features/signals/SignalsPage').then((m) => m.SignalsPage))`.
 * Paths are one segment deep: the built UI loads its assets relative to the page (`./assets`).
 */
export const ROUTES: readonly AreaRoute[] = [
  { path: '/today', label: 'Today', icon: 'today' },
  { path: '/signals', label: 'Signals', icon: 'signals', page: lazyPage(() => import('../features/signals/SignalsPage').then((m) => m.SignalsPage)) },
  { path: '/sources', label: 'Sources', icon: 'sources', page: lazyPage(() => import('../features/sources/SourcesPage').then((m) => m.SourcesPage)) },
  { path: '/tasks', label: 'Tasks', icon: 'tasks' },
  { path: '/outputs', label: 'Outputs', icon: 'outputs' },
  { path: '/memory', label: 'Memory', icon: 'memory' },
  { path: '/cost', label: 'Cost', icon: 'cost' },
  { path: '/activity', label: 'Activity', icon: 'activity', page: lazyPage(() => import('../features/activity/ActivityPage').then((m) => m.ActivityPage)) },
  { path: '/settings', label: 'Settings', icon: 'settings', page: lazyPage(() => import('../features/settings/SettingsPage').then((m) => m.SettingsPage)) },
];

/** Where `/` leads: the first area that has a page. */
export function homePath(routes: readonly AreaRoute[] = ROUTES): string {
  return routes.find((r) => r.page)?.path ?? '/settings';
}

export function matchRoute(path: string, routes: readonly AreaRoute[] = ROUTES): AreaRoute | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return routes.find((r) => clean === r.path || clean.startsWith(`${r.path}/`));
}
