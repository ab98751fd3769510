import { Line, LineChart } from 'recharts';
import './Sparkline.css';

/** A tiny line of daily values (oldest first), for a row in a table or list; the label says what it shows. */
export function Sparkline({ values, label, color = '#3b5bdb' }: { values: readonly number[]; label: string; color?: string }) {
  return (
    <span className="sparkline" role="img" aria-label={label}>
      <LineChart width={84} height={24} data={values.map((v, i) => ({ i, v }))}>
        <Line type="monotone" dataKey="v" stroke={color} strokeWidth={1.5} dot={false} isAnimationActive={false} />
      </LineChart>
    </span>
  );
}
