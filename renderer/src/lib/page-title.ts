import { useEffect, useSyncExternalStore } from 'react';

/**
 * The item a page shows, for the browser tab: the shell titles the tab `<area> · Desk`, and a page
 * about one thing (a task) names it in front: `<task title> · Tasks · Desk`. The page owns the name
 * while it is mounted; the shell reads it. React runs a child's effects before its parent's, so a
 * page setting document.title itself would be overwritten by the shell in the same commit.
 */

let current: string | null = null;
const listeners = new Set<() => void>();
const publish = (title: string | null) => {
  current = title;
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Names what this page shows (null while it loads); cleared when the page goes. */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    publish(title);
    return () => publish(null);
  }, [title]);
}

/** The name the current page gave, or null. */
export function usePageTitleValue(): string | null {
  return useSyncExternalStore(subscribe, () => current);
}

/** The tab's title: the page's item, its area, the app. */
export const tabTitle = (page: string | null, area: string | null): string => [page, area, 'Desk'].filter((p) => p).join(' · ');
