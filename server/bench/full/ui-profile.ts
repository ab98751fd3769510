/**
 * Where a page load's time goes (ui-pages.ts takes one per load): the page's own resource-timing
 * and navigation entries, read after it settled, cut into the phases of a load. The boot (the HTML,
 * the entry bundle and its preloads, evaluated by DOMContentLoaded), the page's chunk(s) fetched
 * after boot, the API requests made before the page showed its list, and the long tasks. Printed
 * per page as the p50 of each phase over the loads, so a waterfall (chunk, then render, then fetch)
 * or a slow endpoint shows as a gap between two columns.
 */
import { median } from './ui-verdict';

export interface UiRequest {
  /** Path and query of an /api/v1 request. */
  path: string;
  startMs: number;
  endMs: number;
}

export interface UiPhases {
  /** The HTML's response ended. */
  htmlMs: number;
  /** DOMContentLoaded ended: the entry module and its static imports are fetched and evaluated. */
  bootMs: number;
  /** JavaScript fetched after boot (the page's lazy chunks): first start, last end; NaN when none. */
  chunkStartMs: number;
  chunkEndMs: number;
  /** API requests started before the page showed its list. */
  requests: UiRequest[];
  /** Long tasks: start and duration. */
  longTasks: { start: number; duration: number }[];
  /** Elements in the document once settled (a big DOM costs every layout). */
  domNodes: number;
}

/**
 * Runs in the page once it settled (a string, for the reason INSTRUMENT is one): the raw entries.
 * The ready instant is passed in so requests made after the page showed (polling, load-more) are left out.
 */
export const READ_PHASES = `(readyMs) => {
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  const js = resources.filter((e) => e.name.endsWith('.js') && e.startTime > nav.domContentLoadedEventStart);
  const api = resources
    .filter((e) => e.name.includes('/api/v1/') && e.startTime <= readyMs)
    .map((e) => { const u = new URL(e.name); return { path: u.pathname.replace('/api/v1', '') + u.search, startMs: e.startTime, endMs: e.responseEnd }; });
  return {
    htmlMs: nav.responseEnd,
    bootMs: nav.domContentLoadedEventEnd,
    chunkStartMs: js.length ? Math.min(...js.map((e) => e.startTime)) : NaN,
    chunkEndMs: js.length ? Math.max(...js.map((e) => e.responseEnd)) : NaN,
    requests: api,
    longTasks: window.__bench.longTasks,
    domNodes: document.getElementsByTagName('*').length,
  };
}`;

const fixed = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(0));
const p50 = (values: number[]) => {
  const known = values.filter((v) => !Number.isNaN(v));
  return known.length ? median(known) : Number.NaN;
};

/** One line per page: the p50 of each phase, and each request's p50 start and end. */
export function phaseLines(name: string, loads: { readyMs: number; phases: UiPhases }[]): string[] {
  const ph = loads.map((l) => l.phases);
  const requests = new Map<string, { start: number[]; end: number[] }>();
  for (const p of ph) {
    for (const r of p.requests) {
      // The query is kept: two reads of one endpoint with other parameters are two requests.
      const key = r.path.replace(/cursor=[^&]+/, 'cursor=…');
      const seen = requests.get(key) ?? { start: [], end: [] };
      seen.start.push(r.startMs);
      seen.end.push(r.endMs);
      requests.set(key, seen);
    }
  }
  const tasks = ph.flatMap((p) => p.longTasks.map((t) => t.duration)).sort((a, b) => b - a);
  const head =
    `${name}: html ${fixed(p50(ph.map((p) => p.htmlMs)))} · boot ${fixed(p50(ph.map((p) => p.bootMs)))} · ` +
    `chunks ${fixed(p50(ph.map((p) => p.chunkStartMs)))}-${fixed(p50(ph.map((p) => p.chunkEndMs)))} · ready ${fixed(p50(loads.map((l) => l.readyMs)))} ms · ` +
    `DOM ${fixed(p50(ph.map((p) => p.domNodes)))} nodes · long tasks ${tasks.length ? tasks.slice(0, 5).map(fixed).join(', ') : 'none'} ms`;
  const rows = [...requests.entries()]
    .sort((a, b) => p50(a[1].start) - p50(b[1].start))
    .map(([path, r]) => `    ${fixed(p50(r.start)).padStart(5)}-${fixed(p50(r.end)).padEnd(5)} (${fixed(p50(r.end.map((e, i) => e - r.start[i]))).padStart(4)} ms, ${r.start.length}/${loads.length} loads)  GET ${path}`);
  return [head, ...rows];
}
