import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, type MouseEvent, type RefObject } from 'react';
import { Brand } from '../components/Brand';
import { Icon } from '../components/Icon';
import { useLiveEvents } from '../features/live/use-live-events';
import { DensityAttribute, PrefsNotice } from '../features/preferences/ShellPrefs';
import { LoopHeader } from '../features/runs/LoopHeader';
import { SearchBox } from '../features/search/SearchBox';
import { DiskFullBanner } from '../features/storage/DiskFullBanner';
import { AREAS, areaOf, homePath } from './routes';
import { tabTitle, usePageTitleValue } from '../lib/page-title';
import './shell.css';

export function NotFound() {
  return (
    <div className="page">
      <h1 className="page-header__title">Page not found</h1>
      <p className="muted">
        There is nothing at this address. <Link to={homePath()}>Go to the start page</Link>.
      </p>
    </div>
  );
}

/** How long a page that loads its module and data may take to show its heading before focus stays put. */
const HEADING_WAIT_MS = 5_000;

/**
 * On navigation to another page (not on the first load, nor between a page and a detail it shows
 * itself, such as a Settings section), focus goes to the new page's h1, so a screen reader starts
 * there and Tab continues from it. A page that put focus inside `main` itself keeps it. The heading
 * may come after the page's module and data: watch `main` until it appears.
 */
function useFocusHeadingOnNavigation(main: RefObject<HTMLElement | null>) {
  const pageRoute = useRouterState({ select: (s) => s.matches[1]?.routeId ?? s.location.pathname });
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const first = previous.current === null;
    const samePage = previous.current === pageRoute;
    previous.current = pageRoute;
    const root = main.current;
    if (first || samePage || root === null) return;
    const focusHeading = (): boolean => {
      const heading = root.querySelector<HTMLElement>('h1');
      if (heading === null) return false;
      if (root.contains(document.activeElement) && document.activeElement !== root) return true;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) stop();
    });
    const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
    observer.observe(root, { childList: true, subtree: true });
    return stop;
  }, [pageRoute, main]);
}

/** The skip link moves focus itself: the address's fragment carries the sign-in token, not anchors. */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  const main = document.getElementById('content');
  if (main === null) return;
  event.preventDefault();
  main.focus();
}

/** The layout of every route: the skip link, the sidebar, the loop header, and the matched page in `main`; it holds the live event stream. */
export function Shell() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const area = areaOf(pathname);
  const main = useRef<HTMLElement>(null);
  const pageTitle = usePageTitleValue();
  useEffect(() => {
    document.title = tabTitle(pageTitle, area?.label ?? null);
  }, [area, pageTitle]);
  useFocusHeadingOnNavigation(main);
  // The one subscription to the desk's events: every panel below refreshes from it.
  useLiveEvents();

  return (
    <div className="shell">
      <a className="skip-link" href="#content" onClick={skipToContent}>
        Skip to content
      </a>
      <aside className="sidebar">
        <Brand />
        <nav aria-label="Main">
          <ul className="nav">
            {AREAS.map((a) => (
              <li key={a.to}>
                {a.page ? (
                  <Link to={a.to} className="nav__link" title={a.label}>
                    <Icon name={a.icon} />
                    {a.label}
                  </Link>
                ) : (
                  <span className="nav__link is-disabled" aria-disabled="true" title={`${a.label}: coming soon`}>
                    <Icon name={a.icon} />
                    {a.label}
                    <span className="nav__soon">soon</span>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="shell__body">
        <LoopHeader search={<SearchBox />} />
        <main className="main" id="content" ref={main} tabIndex={-1}>
          <DensityAttribute />
          <PrefsNotice />
          <DiskFullBanner />
          <Outlet />
        </main>
      </div>
    </div>
  );
}
