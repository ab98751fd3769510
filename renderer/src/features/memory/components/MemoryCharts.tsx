import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Bar, BarChart, Tooltip, XAxis, YAxis } from 'recharts';
import { QUERY } from '../../../api/rules.gen';
import { FormError } from '../../../components/FormError';
import { plural } from '../../../lib/format';
import { costTrajectoryQuery, retrievalTrajectoryQuery } from '../api';
import { formatUsd } from '../../../lib/format';

/** The window choices of the charts: the API's default and its maximum. */
const WINDOWS = [QUERY.getMemoryRetrievalTrajectory.days.default, QUERY.getMemoryRetrievalTrajectory.days.maximum];
const CHART = { width: 300, height: 96 };
// Fixed sizes: charts live in cards of known width, and need no ResizeObserver (tests run without layout).
const shortDay = (date: string) => date.slice(5);

/** Daily retrievals and attributed cost of one entry, as two small bar charts with their totals in words. */
export function TrajectoryCharts({ memoryId }: { memoryId: string }) {
  const [days, setDays] = useState<number>(WINDOWS[0]);
  const retrievals = useQuery(retrievalTrajectoryQuery(memoryId, days));
  const cost = useQuery(costTrajectoryQuery(memoryId, days));
  const totalRetrievals = retrievals.data?.points.reduce((n, p) => n + p.count, 0) ?? 0;
  const totalCost = cost.data?.points.reduce((n, p) => n + p.estimatedCostUsd, 0) ?? 0;
  return (
    <div className="memory-charts">
      <div className="memory-charts__head">
        <span className="muted small">Usage by day</span>
        <div className="segmented-mini" role="group" aria-label="Chart window">
          {WINDOWS.map((w) => (
            <button key={w} type="button" className={`button button--ghost button--small${w === days ? ' is-active' : ''}`} aria-pressed={w === days} onClick={() => setDays(w)}>
              {w} days
            </button>
          ))}
        </div>
      </div>
      <FormError error={retrievals.error ?? cost.error} />
      <div className="memory-charts__grid">
        <figure className="memory-chart memory-chart--retrievals">
          <figcaption className="small">{retrievals.data ? `${plural(totalRetrievals, 'retrieval')} in ${days} days` : 'Retrievals'}</figcaption>
          {retrievals.data ? (
            <BarChart {...CHART} data={retrievals.data.points} accessibilityLayer>
              <XAxis dataKey="date" tickFormatter={shortDay} tick={{ fontSize: 10 }} interval="preserveStartEnd" />
              <YAxis allowDecimals={false} width={28} tick={{ fontSize: 10 }} />
              <Tooltip formatter={(v) => [String(v), 'retrievals']} />
              <Bar dataKey="count" fill="#3b5bdb" isAnimationActive={false} />
            </BarChart>
          ) : null}
        </figure>
        <figure className="memory-chart memory-chart--cost">
          <figcaption className="small">{cost.data ? `${formatUsd(totalCost)} attributed in ${days} days` : 'Attributed cost'}</figcaption>
          {cost.data ? (
            <BarChart {...CHART} data={cost.data.points} accessibilityLayer>
              <XAxis dataKey="date" tickFormatter={shortDay} tick={{ fontSize: 10 }} interval="preserveStartEnd" />
              <YAxis width={40} tick={{ fontSize: 10 }} tickFormatter={(v: number) => formatUsd(v)} />
              <Tooltip formatter={(v) => [formatUsd(Number(v)), 'cost']} />
              <Bar dataKey="estimatedCostUsd" fill="#2b8a3e" isAnimationActive={false} />
            </BarChart>
          ) : null}
        </figure>
      </div>
    </div>
  );
}
