import { sparklinePath } from './sparkline-path';
import './Sparkline.css';

const WIDTH = 84;
const HEIGHT = 24;

/**
 * A tiny line of daily values (oldest first), for a row in a table or list; the label says what it shows.
 * A plain SVG path rather than a chart library's chart: a page lists dozens of these (the Cost page's
 * breakdowns at full size), and one recharts chart each cost the page over a second of main-thread
 * work (`npm run bench -- --dataset full --only ui`).
 */
export function Sparkline({ values, label, color = '#3b5bdb' }: { values: readonly number[]; label: string; color?: string }) {
  return (
    <span className="sparkline" role="img" aria-label={label}>
      <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
        <path d={sparklinePath(values, WIDTH, HEIGHT, 1.5)} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
      </svg>
    </span>
  );
}
