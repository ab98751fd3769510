/**
 * The line of a sparkline as an SVG path: `values` (oldest first) spread evenly across `width`,
 * scaled so the lowest sits at the bottom and the highest at the top, inside `inset` pixels of
 * every edge (so the stroke is not clipped). A flat series is drawn across the middle; one value
 * is a flat line across the whole width; none is an empty path.
 */
export function sparklinePath(values: readonly number[], width: number, height: number, inset = 1): string {
  const finite = values.map((v) => (Number.isFinite(v) ? v : 0));
  if (finite.length === 0) return '';
  const series = finite.length === 1 ? [finite[0], finite[0]] : finite;
  const min = Math.min(...series);
  const max = Math.max(...series);
  const stepX = (width - 2 * inset) / (series.length - 1);
  const spanY = height - 2 * inset;
  const y = (v: number) => (max === min ? height / 2 : inset + spanY * (1 - (v - min) / (max - min)));
  const r = (n: number) => Math.round(n * 100) / 100;
  return series.map((v, i) => `${i === 0 ? 'M' : 'L'}${r(inset + i * stepX)},${r(y(v))}`).join(' ');
}
