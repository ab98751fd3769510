import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Brand } from '../components/Brand';
import { Icon } from '../components/Icon';
import { Link } from '../components/Link';
import { QueryState } from '../components/Page';
import { formatDateTime } from '../lib/format';
import { navigate, useRouter } from '../lib/router';
import { workspaceQuery } from '../features/settings/api';
import { ROUTES, homePath, matchRoute } from './routes';

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
    <Link to="/settings" className={`loop-status loop-status--${data.loopState}`} title="Loop settings">
      <span className="loop-status__dot" aria-hidden="true" />
      {text}
    </Link>
  );
}

function NotFound() {
  return (
    <div className="page">
      <h1 className="page-header__title">Page not found</h1>
      <p className="muted">
        There is nothing at this address. <Link to={homePath()}>Go to the start page</Link>.
      </p>
    </div>
  );
}

export function Shell() {
  const path = useRouter((s) => s.path);
  const route = matchRoute(path === '/' ? homePath() : path);
  const Page = route?.page;

  useEffect(() => {
    if (path === '/') navigate(homePath(), { replace: true });
  }, [path]);
  useEffect(() => {
    document.title = route ? `${route.label} · Desk` : 'Desk';
  }, [route]);

  return (
    <div className="shell">
      <aside className="sidebar">
        <Brand />
        <nav aria-label="Main">
          <ul className="nav">
            {ROUTES.map((r) => (
              <li key={r.path}>
                {r.page ? (
                  <Link to={r.path} className="nav__link" title={r.label}>
                    <Icon name={r.icon} />
                    {r.label}
                  </Link>
                ) : (
                  <span className="nav__link is-disabled" aria-disabled="true" title={`${r.label}: coming soon`}>
                    <Icon name={r.icon} />
                    {r.label}
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
        {Page ? (
          <Suspense fallback={<QueryState isPending error={null} />}>
            <Page />
          </Suspense>
        ) : route ? (
          <div className="page">
            <h1 className="page-header__title">{route.label}</h1>
            <p className="muted">This area is coming soon.</p>
          </div>
        ) : (
          <NotFound />
        )}
      </main>
    </div>
  );
}
