import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import { PageHeader } from '../../components/Page';
import { HOME_PANELS, type HomePanel } from '../preferences/api';
import { arrange, move, moveTo, toggle } from '../preferences/layout';
import { PanelFrame } from '../preferences/PanelFrame';
import { useDashboardPrefs } from '../preferences/use-dashboard-prefs';
import { now } from '../../lib/clock';
import { summaryQuery, type WorkspaceSummary } from './api';
import { StartFromTemplateCard } from '../onboarding/StartFromTemplate';
import { InboxPanel } from './InboxPanel';
import { InsightsPanel, ReactionsPanel } from './InsightsPanel';
import { TodayPanel } from './TodayPanel';
import { sinceForThisVisit, useHomeVisit } from './visit-store';
import { WhatsNewPanel } from './WhatsNewPanel';
import './home.css';

/**
 * The previous visit's time, read once when Home opens (so the page keeps showing what was new when
 * it opened) and held for the whole visit, reloads included (visit-store.ts), and this visit
 * recorded for the next one.
 */
function useSinceLastVisit(): string | null {
  const [since] = useState(() => sinceForThisVisit(now()));
  useEffect(() => {
    useHomeVisit.getState().recordVisit(now().toISOString());
  }, []);
  return since;
}

/** First steps for a desk that has not run yet: each step is done once the summary shows it. */
function GetStarted({ s }: { s: WorkspaceSummary }) {
  const hasInput = s.sources.total > 0 || s.signals.total > 0;
  const hasRun = s.cycles.total > 0;
  if (hasInput && hasRun) return null;
  const decided = s.artifacts.approved + s.artifacts.archived > 0;
  return (
    <section className="card card--padded home-start" aria-labelledby="home-start-title">
      <h2 className="card__title" id="home-start-title">
        Get started
      </h2>
      <ol className="home-start__steps">
        <li className={hasInput ? 'is-done' : undefined}>
          <Link to="/sources">Add a source</Link> (a feed, a file, or a webhook) so signals come in.
        </li>
        <li className={hasRun ? 'is-done' : undefined}>
          Run the loop: press <strong>Run now</strong> in the header, or let it run on its schedule. It turns signals into tasks and draft outputs.
        </li>
        <li className={decided ? 'is-done' : undefined}>
          <Link to="/outputs">Review the outputs</Link>: approve what is good, archive the rest.
        </li>
      </ol>
    </section>
  );
}

/** Each panel's name (its controls and its collapsed card say it) and whether it spans both columns. */
const PANEL_INFO: Record<HomePanel, { title: string; wide?: boolean }> = {
  today: { title: 'Today', wide: true },
  'whats-new': { title: "What's new" },
  inbox: { title: 'Inbox' },
  insights: { title: 'Top tags' },
  reactions: { title: 'Reactions' },
};

/**
 * Home: today at a glance, what's new since the last visit, the personal inbox, top tags and reactions,
 * in the member's order and with the panels they collapsed (dashboard preferences).
 */
export function HomePage() {
  const since = useSinceLastVisit();
  const [inboxUser, setInboxUser] = useState<string | null>(null);
  const summary = useQuery(summaryQuery());
  const { prefs, ready, update } = useDashboardPrefs();
  const order = arrange(HOME_PANELS, prefs.panelOrder);
  const render: Record<HomePanel, () => ReactNode> = {
    today: () => <TodayPanel />,
    'whats-new': () => <WhatsNewPanel since={since} />,
    inbox: () => <InboxPanel userId={inboxUser} onUserChange={setInboxUser} />,
    insights: () => <InsightsPanel />,
    reactions: () => <ReactionsPanel />,
  };
  return (
    <div className="page home">
      <PageHeader title="Today" description="What the desk did today, what is new since you last looked, and what waits on you." />
      {summary.data ? <StartFromTemplateCard summary={summary.data} /> : null}
      {summary.data ? <GetStarted s={summary.data} /> : null}
      {/* Laid out once the preferences are read, so panels do not jump into place. */}
      {ready ? (
        <div className="home-grid">
          {order.map((id, i) => (
            <PanelFrame
              key={id}
              group="home"
              id={id}
              title={PANEL_INFO[id].title}
              className={PANEL_INFO[id].wide ? 'home-grid__wide' : undefined}
              collapsed={prefs.collapsedPanels.includes(id)}
              onCollapsedChange={(collapsed) => void update({ collapsedPanels: toggle(prefs.collapsedPanels, id, collapsed) })}
              onMove={(by) => void update({ panelOrder: move(order, id, by) })}
              onDropPanel={(dragged) => void update({ panelOrder: moveTo(order, dragged as HomePanel, id) })}
              first={i === 0}
              last={i === order.length - 1}
            >
              {render[id]()}
            </PanelFrame>
          ))}
        </div>
      ) : null}
    </div>
  );
}
