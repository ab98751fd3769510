import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { PageHeader, QueryState } from '../../components/Page';
import { Segmented } from '../../components/Segmented';
import { COST_PANEL_COLUMN } from '../../api/rules.gen';
import { COST_COLUMN_LABELS } from '../preferences/cost-layout';
import { useDashboardPrefs } from '../preferences/use-dashboard-prefs';
import { costTodayQuery } from './api';
import { Breakdowns } from './Breakdowns';
import { ChronicPanel, SpikesPanel } from './GuardPanels';
import { TodayCard } from './TodayCard';
import './cost.css';

const WINDOWS = [
  { value: '7', label: '7 days' },
  { value: '14', label: '14 days' },
  { value: '30', label: '30 days' },
] as const;

/** What the desk spends: today against the cap, and which tasks, people, tags, sources and memory drive it. */
export function CostPage() {
  const today = useQuery(costTodayQuery());
  const [days, setDays] = useState<(typeof WINDOWS)[number]['value']>('7');
  const [includeDone, setIncludeDone] = useState(false);
  const { prefs, update } = useDashboardPrefs();
  return (
    <div className="page">
      <PageHeader
        title="Cost"
        description={
          <>
            What the AI loop spends and what drives it. The cap and the spike actions are in <Link to="/settings/$section" params={{ section: 'cost' }}>Settings</Link>.
          </>
        }
      />
      <div className="stack">
        {today.data ? <TodayCard today={today.data} /> : <QueryState isPending={today.isPending} error={today.error} onRetry={() => void today.refetch()} />}
        {/* The guard panels ask 9 questions: asked at once with the page's own, they held today's spend
            and the breakdowns behind the browser's 6 connections (npm run bench, full size). */}
        {today.data || today.error ? (
          <div className="cost-guard">
            <SpikesPanel />
            <ChronicPanel />
          </div>
        ) : null}
        <div className="filters">
          <Segmented label="Trajectory window" value={days} options={WINDOWS} onChange={setDays} />
          <label className="checkbox small cost-include-done">
            <input type="checkbox" checked={includeDone} onChange={(e) => setIncludeDone(e.target.checked)} />
            <span>Include done tasks</span>
          </label>
          <fieldset className="cost-columns">
            <legend className="small muted">Columns</legend>
            {COST_PANEL_COLUMN.map((c) => (
              <label key={c} className="checkbox small">
                <input
                  type="checkbox"
                  checked={prefs.costPanelColumns.includes(c)}
                  // Kept in the API's column order, whatever order they were ticked in.
                  onChange={(e) => void update({ costPanelColumns: COST_PANEL_COLUMN.filter((x) => (x === c ? e.target.checked : prefs.costPanelColumns.includes(x))) })}
                />
                <span>{COST_COLUMN_LABELS[c]}</span>
              </label>
            ))}
          </fieldset>
        </div>
        <Breakdowns filter={{ includeDone, days: Number(days) }} />
      </div>
    </div>
  );
}
