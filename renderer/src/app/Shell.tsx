import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Brand } from '../components/Brand';
import { Icon } from '../components/Icon';
import { formatDateTime } from '../lib/format';
import { workspaceQuery } from '../features/settings/api';
import { AREAS, areaOf, homePath } from './routes';
import './shell.css';

function LoopStatus() {
  const { data } = useQuery(workspaceQuery());
  if (!data) return null;
  const text =
    data.loopState === 'on'
      ? `Loop on · every ${data.effectiveLoopIntervalMinutes} min`
      : data.loopState === 'paused'
        ? data.pauseUntilAt
          ? `Paused until ${formatDateTime(data.pauseUntilAt)}`
          : 'Loop paused'
        : 'Loop off';
  return (
    <Link to="/settings/$section" params={{ section: 'loop' }} resetScroll={false} className={`loop-status loop-status--${data.loopState}`} title="Loop settings">
      <span className="loop-status__dot" aria-hidden="true" />
      {text}
    </Link>
  );
}

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

export function ComingSoon({ label }: { label: string }) {
  return (
    <div className="page">
      <h1 className="page-header__title">{label}</h1>
      <p className="muted">This area is coming soon.</p>
    </div>
  );
}

/** The layout of every route: the sidebar, and the matched page in `main`. */
export function Shell() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const area = areaOf(pathname);
  useEffect(() => {
    document.title = area ? `${area.label} · Desk` : 'Desk';
  }, [area]);

  return (
    <div className="shell">
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
        <div className="sidebar__footer">
          <LoopStatus />
        </div>
      </aside>
      <main className="main">
        <Outlet />
      </main>
    </div>
  );
}
