import { Bar, BarChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCents } from '../../lib/format';
import type { CostToday } from './api';

const shortDay = (date: string) => date.slice(5);

/** The last 7 days as bars: its own module, so recharts loads after today's figures show (TodayCard). */
export function TodayChart({ sparkline }: { sparkline: CostToday['sparkline'] }) {
  return (
    <BarChart width={260} height={90} data={sparkline} accessibilityLayer>
      <XAxis dataKey="date" tickFormatter={shortDay} tick={{ fontSize: 10 }} interval="preserveStartEnd" />
      <YAxis width={30} allowDecimals={false} tick={{ fontSize: 10 }} />
      <Tooltip formatter={(v) => [formatCents(Number(v)), 'spend']} />
      <Bar dataKey="cents" fill="#3b5bdb" isAnimationActive={false} />
    </BarChart>
  );
}
