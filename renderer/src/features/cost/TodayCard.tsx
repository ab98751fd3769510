import { Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { formatCents, formatUsd } from '../../lib/format';
import type { CostToday } from './api';
import { EstimateNote } from './EstimateNote';

// recharts is ~360 kB: evaluated before the page, it held today's figures back (npm run bench, full size).
const TodayChart = lazy(() => import('./TodayChart').then((m) => ({ default: m.TodayChart })));

/** "+$0.40 vs yesterday" / "−12% vs 7-day average": the change of today against a reference, in words. */
function delta(todayCents: number, refCents: number, label: string): string {
  if (refCents === 0) return todayCents === 0 ? `same as ${label}` : `${label} was $0`;
  const pct = Math.round(((todayCents - refCents) / refCents) * 100);
  return `${pct > 0 ? '+' : ''}${pct}% vs ${label}`;
}

/**
 * Today's spend against the daily cap: the figure, a bar to the cap (warning past 80%, danger at
 * the cap), yesterday and the 7-day baseline, and the last 7 days as bars. At the cap it says
 * plainly that the loop has stopped for today and how to start it again.
 */
export function TodayCard({ today }: { today: CostToday }) {
  const t = today;
  const pct = t.capPercent ?? 0;
  const tone = t.capReached ? 'danger' : pct >= 80 ? 'warning' : 'ok';
  return (
    <section className="card card--padded cost-today" aria-label="Spend today">
      <div className="cost-today__figures">
        <div>
          <p className="muted small">Today ({t.date})</p>
          <p className="cost-today__amount">
            {formatUsd(t.todayEstimatedCostUsd)}
            {t.dailyCostCap !== null ? <span className="muted cost-today__cap"> of {formatCents(t.dailyCostCap)} cap</span> : <span className="muted cost-today__cap"> · no daily cap</span>}
          </p>
          {t.dailyCostCap !== null ? (
            <div className={`cost-bar cost-bar--${tone}`} role="meter" aria-label="Spend against the daily cap" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.min(100, pct)}>
              <span className="cost-bar__fill" style={{ width: `${Math.min(100, pct)}%` }} />
            </div>
          ) : null}
          <p className="small muted">
            Yesterday {formatCents(t.yesterdayCents)} · 7-day average {formatCents(t.baselineCents)} · {delta(t.todayCents, t.baselineCents, '7-day average')}
          </p>
          <EstimateNote />
        </div>
        <figure className="cost-today__chart">
          <figcaption className="small muted">Last 7 days (cents)</figcaption>
          <Suspense fallback={<div className="cost-today__chart-space" />}>
            <TodayChart sparkline={t.sparkline} />
          </Suspense>
        </figure>
      </div>
      {t.capReached ? (
        <p className="cost-today__stopped" role="alert">
          The daily cap stopped the loop: no cycle runs until tomorrow ({t.timezone}) unless you <Link to="/settings/$section" params={{ section: 'cost' }}>raise or remove the cap</Link>.
        </p>
      ) : null}
    </section>
  );
}
