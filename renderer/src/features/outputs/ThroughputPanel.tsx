import { Bar, ComposedChart, Line, Tooltip, XAxis, YAxis } from 'recharts';
import type { Schema } from '../../api/client';
import { plural } from '../../lib/format';
import { hoursLabel } from './format';

type Throughput = Schema<'ArtifactList'>['approvalThroughput'];
type Window = Throughput['last7Days'];

// Fixed size: the panel sits in a column of known width, and tests run without layout.
const CHART = { width: 300, height: 120 };
const shortDay = (date: string) => date.slice(5);
const pct = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)}%`);

const TREND_TEXT: Record<Throughput['trend']['direction'], string> = {
  faster: 'faster than the week before',
  slower: 'slower than the week before',
  steady: 'about as fast as the week before',
  insufficient: 'too few decisions to compare weeks',
};

const QUALITY_TEXT: Record<Window['sampleQuality'], string | null> = {
  exact: null,
  none: null,
  inferred: 'Waits are estimated: these outputs have no stored ready time.',
  mixed: 'Some waits are estimated (outputs without a stored ready time).',
};

// The figures of both windows, one row each: [label, value of a window].
const ROWS: [string, (w: Window) => string][] = [
  ['Decisions', (w) => String(w.decisions)],
  ['Approved / archived', (w) => (w.decisions === 0 ? '–' : `${w.approved} / ${w.archived}`)],
  ['Median wait', (w) => hoursLabel(w.medianHours)],
  ['Within 24 h', (w) => pct(w.within24hShare)],
  ['Past 72 h', (w) => pct(w.past72hShare)],
  ['Before watch', (w) => pct(w.withinWatchShare)],
  ['Past policy', (w) => pct(w.pastPolicyShare)],
];

function WindowsTable({ windows }: { windows: [string, Window][] }) {
  return (
    <table className="throughput-table small">
      <thead>
        <tr>
          <td />
          {windows.map(([label]) => (
            <th key={label} scope="col">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ROWS.map(([label, value]) => (
          <tr key={label}>
            <th scope="row" className="muted">
              {label}
            </th>
            {windows.map(([w, win]) => (
              <td key={w}>{value(win)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * How fast decisions are made: the 7- and 30-day windows side by side, the 30-day p90, the
 * week-over-week trend, and the last 14 days as a chart (decisions as bars, median wait as a line).
 */
export function ThroughputPanel({ throughput }: { throughput: Throughput }) {
  const t = throughput;
  const decided14 = t.daily.reduce((n, d) => n + d.decisions, 0);
  const quality = QUALITY_TEXT[t.last30Days.sampleQuality];
  return (
    <section className="card card--padded insight" aria-label="Decision speed">
      <h2 className="insight__title">Decision speed</h2>
      <p className="small">
        30-day p90 wait <strong>{hoursLabel(t.p90Hours30d)}</strong>; this week {TREND_TEXT[t.trend.direction]}
        {t.trend.changeShare !== null && t.trend.direction !== 'insufficient' ? ` (median wait ${t.trend.changeShare > 0 ? '+' : ''}${Math.round(t.trend.changeShare * 100)}%)` : ''}.
      </p>
      <WindowsTable
        windows={[
          ['7 days', t.last7Days],
          ['30 days', t.last30Days],
        ]}
      />
      <figure className="throughput-chart">
        <figcaption className="small muted">{decided14 === 0 ? 'No decisions in the last 14 days.' : `${plural(decided14, 'decision')} in the last 14 days: per day, and the day's median wait (hours)`}</figcaption>
        {decided14 > 0 ? (
          <ComposedChart {...CHART} data={t.daily} accessibilityLayer>
            <XAxis dataKey="date" tickFormatter={shortDay} tick={{ fontSize: 10 }} interval="preserveStartEnd" />
            <YAxis yAxisId="n" allowDecimals={false} width={24} tick={{ fontSize: 10 }} />
            <YAxis yAxisId="h" orientation="right" width={30} tick={{ fontSize: 10 }} />
            <Tooltip formatter={(v, name) => (name === 'medianHours' ? [hoursLabel(Number(v)), 'median wait'] : [String(v), 'decisions'])} />
            <Bar yAxisId="n" dataKey="decisions" fill="#3b5bdb" isAnimationActive={false} />
            <Line yAxisId="h" dataKey="medianHours" stroke="#e8590c" strokeWidth={2} dot={{ r: 2 }} connectNulls isAnimationActive={false} />
          </ComposedChart>
        ) : null}
      </figure>
      {quality ? <p className="muted small">{quality}</p> : null}
    </section>
  );
}
