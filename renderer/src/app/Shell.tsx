import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { Brand } from '../components/Brand';
import { Icon } from '../components/Icon';
import { DensityAttribute, PrefsNotice } from '../features/preferences/ShellPrefs';
import { LoopHeader } from '../features/runs/LoopHeader';
import { SearchBox } from '../features/search/SearchBox';
import { DiskFullBanner } from '../features/storage/DiskFullBanner';
import { AREAS, areaOf, homePath } from './routes';
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

/** The layout of every route: the sidebar, the loop header, and the matched page in `main`. */
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
      </aside>
      <div className="shell__body">
        <LoopHeader search={<SearchBox />} />
        <main className="main">
          <DensityAttribute />
          <PrefsNotice />
          <DiskFullBanner />
          <Outlet />
        </main>
      </div>
    </div>
  );
}
