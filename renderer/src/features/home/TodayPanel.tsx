import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { QueryState } from '../../components/Page';
import { EstimateNote } from '../cost/EstimateNote';
import { formatCents } from '../../lib/format';
import { formatCount, formatUsd } from '../runs/format';
import { todayQuery, type DayFigures, type TodaySnapshot } from './api';
import { baselineText, deltaText, trend } from './format';

type Figure = Exclude<keyof DayFigures, 'spendUsd'>;

/** One figure of today with yesterday's delta and the 7-day baseline; the link's name is all its visible text. */
function Tile({ label, value, note, noteTone, delta, baseline, direction, to }: { label: string; value: string; note?: string; noteTone?: 'warning'; delta: string; baseline: string; direction: 'up' | 'down' | 'level'; to: '/signals' | '/runs' | '/outputs' }) {
  return (
    <Link to={to} className="home-tile">
      <span className="home-tile__label">{label}</span>
      <span className="home-tile__value">{value}</span>
      {note ? <span className={`home-tile__note${noteTone ? ` home-tile__note--${noteTone}` : ''}`}>{note}</span> : null}
      <span className={`home-tile__delta home-tile__delta--${direction}`}>{delta}</span>
      <span className="home-tile__baseline">{baseline}</span>
    </Link>
  );
}

function countTile(t: TodaySnapshot, key: Figure, label: string, to: '/signals' | '/runs' | '/outputs') {
  return (
    <Tile
      key={key}
      label={label}
      value={formatCount(t.today[key])}
      delta={deltaText(t.deltaVsYesterday[key])}
      baseline={baselineText(t.baseline7d[key])}
      direction={trend(t.today[key], t.baseline7d[key])}
      to={to}
    />
  );
}

/** Today at a glance: signals, cycles, outputs (waiting now and made today), approvals, spend against the cap. */
export function TodayPanel() {
  const q = useQuery(todayQuery());
  if (!q.data) return <QueryState isPending={q.isPending} error={q.error} onRetry={() => void q.refetch()} />;
  const t = q.data;
  const cap = t.cap.dailyCostCapUsdCents;
  return (
    <section className="card card--padded home-today" aria-labelledby="home-today-title">
      <h2 className="card__title" id="home-today-title">
        Today <span className="muted small">({t.day}, {t.timezone})</span>
      </h2>
      <div className="home-tiles">
        {countTile(t, 'signals', 'Signals', '/signals')}
        <Tile
          label="Cycles"
          value={formatCount(t.today.cycles)}
          note={t.today.failedCycles > 0 ? `${formatCount(t.today.failedCycles)} failed` : undefined}
          // Completed cycles are the figure; failed ones are counted apart, in the header's amber.
          noteTone={t.today.failedCycles > 0 ? 'warning' : undefined}
          delta={deltaText(t.deltaVsYesterday.cycles)}
          baseline={baselineText(t.baseline7d.cycles)}
          direction={trend(t.today.cycles, t.baseline7d.cycles)}
          to="/runs"
        />
        <Tile
          label="Outputs waiting"
          value={formatCount(t.outputsWaiting)}
          note={`${formatCount(t.today.outputs)} made today`}
          delta={`made: ${deltaText(t.deltaVsYesterday.outputs)}`}
          baseline={`made: ${baselineText(t.baseline7d.outputs)}`}
          direction={trend(t.today.outputs, t.baseline7d.outputs)}
          to="/outputs"
        />
        {countTile(t, 'approvals', 'Approvals', '/outputs')}
        <Tile
          label="Spend"
          value={formatUsd(t.today.spendUsd)}
          note={cap === null ? 'no daily cap' : `of ${formatCents(cap)} cap (${t.cap.capPercent ?? 0}%)`}
          delta={deltaText(t.deltaVsYesterday.spendUsd, true)}
          baseline={baselineText(t.baseline7d.spendUsd, true)}
          direction={trend(t.today.spendUsd, t.baseline7d.spendUsd)}
          to="/runs"
        />
      </div>
      {cap !== null ? (
        <div className="home-cap" role="meter" aria-label="Share of the daily cap spent today" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.min(100, t.cap.capPercent ?? 0)}>
          <div className={`home-cap__fill${(t.cap.capPercent ?? 0) >= 80 ? ' home-cap__fill--near' : ''}`} style={{ width: `${Math.min(100, t.cap.capPercent ?? 0)}%` }} />
        </div>
      ) : null}
      <EstimateNote />
    </section>
  );
}
