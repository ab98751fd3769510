/**
 * The UI at full size: the desk as it ships (shipped-desk.ts, serving the built UI as `npm start`
 * does) on a copy of the dataset, its pages loaded in Chromium (the system's, never a downloaded
 * one). For each page, the time from navigation to its main list or panel showing a first row, and
 * the longest task the page ran ('longtask' entries) until its requests settled.
 *
 * "Shown" is decided in the page, not by polling from outside (Playwright's waits poll at 20-100 ms
 * steps, coarser than what is measured): an init script watches the document with a
 * MutationObserver and notes performance.now() (milliseconds since the navigation started) when
 * every selector of the page matches an element with a box. The selectors name the lists and
 * regions by their accessible names; after each load the same element is looked up again by role
 * (getByRole), so a selector that stopped meaning what it says fails the run rather than timing
 * something else.
 *
 * Each page is measured two ways, in rounds over all pages (so load on the machine falls on every
 * page alike): a cold load (a new tab opening its address: the bundle boots, then the page) and an
 * in-app navigation (the booted app's sidebar link clicked, as a person moves between pages of the
 * window; timed from the click, in the page). The issue's targets are judged on the navigation;
 * the cold load is judged against the blank page booted in the same run (ui-verdict.ts).
 *
 * The browser keeps a profile on disk, as the desktop window's session does (Electron's default
 * session is persistent): its HTTP cache and V8's code cache serve the bundle from the second load
 * on. An incognito context compiled the bundle on every load, which no window does after its first
 * start (blank page p50 about 370 ms incognito, 230 ms with a profile, quiet machine).
 *
 * Search has no page: the box in the header is typed into on the baseline page, and its figure is
 * the time from the debounced request's start (its resource-timing entry) to the first hit shown;
 * the time from the keystroke, which holds the box's deliberate pause, is printed beside it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Locator, type Page } from 'playwright';
import { startShippedDesk } from './shipped-desk';
import { phaseLines, READ_PHASES, type UiPhases } from './ui-profile';
import { median, summarisePage, type UiLoad, type UiPageSummary } from './ui-verdict';

const CHROMIUM = process.env.DESK_CHROMIUM ?? '/usr/bin/chromium';
/** Measured loads of each page (after one warm-up load), taken in rounds over all pages so that load on the machine falls on every page alike. */
export const UI_LOADS = 5;
const READY_TIMEOUT_MS = 30_000;
/** The query typed into the search box: a word of the dataset's vocabulary (bench-engine.ts), as the endpoint bench searches. */
const SEARCH_QUERY = 'checkout';

interface Check {
  /** A CSS selector of the element that must have a box. */
  css: string;
  /** Text the element must contain. */
  text?: string;
}

interface PageSpec {
  name: string;
  path: string;
  ready: Check[];
  /** The same element(s), found by role and accessible name. */
  byRole: (page: Page) => Locator[];
}

/** A page that reads no data: the app's own "not found" page, booted like every other page (bundle, sign-in, shell, header). */
const BASELINE: PageSpec = {
  name: 'baseline: blank page of the same UI',
  path: '/bench-blank-page',
  ready: [{ css: 'main h1', text: 'Page not found' }],
  byRole: (page) => [page.getByRole('main').getByRole('heading', { name: 'Page not found' })],
};

export const UI_PAGES: PageSpec[] = [
  {
    name: 'Today',
    path: '/today',
    ready: [{ css: '[aria-labelledby="home-today-title"] a' }],
    byRole: (page) => [page.getByRole('region', { name: /^Today/ }).getByRole('link').first()],
  },
  {
    name: 'Signals',
    path: '/signals',
    ready: [{ css: 'ul[aria-label="Signals"] > li' }],
    byRole: (page) => [page.getByRole('list', { name: 'Signals', exact: true }).getByRole('listitem').first()],
  },
  {
    name: 'Tasks',
    path: '/tasks',
    ready: [{ css: 'ul[aria-label="Tasks"] > li' }],
    byRole: (page) => [page.getByRole('list', { name: 'Tasks', exact: true }).getByRole('listitem').first()],
  },
  {
    name: 'Outputs',
    path: '/outputs',
    ready: [{ css: 'ul[aria-label="Outputs"] > li' }],
    byRole: (page) => [page.getByRole('list', { name: 'Outputs', exact: true }).getByRole('listitem').first()],
  },
  {
    name: 'Cost',
    path: '/cost',
    // Today's spend against the cap, and the first breakdown (the costliest tasks) with a row.
    ready: [{ css: 'section[aria-label="Spend today"]' }, { css: 'ol[aria-label="Tasks"] > li' }],
    byRole: (page) => [page.getByRole('region', { name: 'Spend today' }), page.getByRole('list', { name: 'Tasks', exact: true }).getByRole('listitem').first()],
  },
  {
    name: 'Activity',
    path: '/activity',
    // A row that follows a row in a day's group: the first entry under its group's heading row.
    ready: [{ css: 'table[aria-label="Activity log"] tbody tr + tr' }],
    byRole: (page) => [page.getByRole('table', { name: 'Activity log' }).getByRole('row').nth(2)],
  },
];

const SEARCH_HIT: Check = { css: '[role="listbox"][aria-label="Search results"] [role="option"]' };

declare global {
  interface Window {
    __bench: { longTasks: { start: number; duration: number }[]; watch: (checks: Check[]) => Promise<number>; ready?: Promise<number> };
  }
}

/**
 * Runs in the page before any of its scripts: records long tasks, and starts watching for the checks
 * it is given (null: none). Plain JavaScript in a string: a function handed to Playwright would be
 * sent as tsx compiled it, with esbuild's `__name` helper that the page does not have.
 */
const INSTRUMENT = `(checks) => {
  const longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const shown = (c) =>
    Array.from(document.querySelectorAll(c.css)).some((el) => {
      if (c.text !== undefined && !(el.textContent || '').includes(c.text)) return false;
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    });
  const watch = (wanted) =>
    new Promise((resolve) => {
      if (wanted.every(shown)) return resolve(performance.now());
      const observer = new MutationObserver(() => {
        if (!wanted.every(shown)) return;
        observer.disconnect();
        resolve(performance.now());
      });
      observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    });
  window.__bench = { longTasks, watch, ready: checks ? watch(checks) : undefined };
}`;

const withTimeout = <T>(promise: Promise<T>, what: string): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: not shown within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS))]);

/** Waits until the page's requests settle (500 ms without one), so the long tasks of the whole load are counted; a page that keeps polling stops the wait at 5 s. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

async function confirmByRole(page: Page, spec: PageSpec): Promise<void> {
  for (const locator of spec.byRole(page)) {
    if (!(await locator.isVisible())) throw new Error(`${spec.name}: the selectors matched, but ${locator.toString()} is not visible: the page's markup changed, update ui-pages.ts`);
  }
}

/** Clicks the sidebar's link to `href` in the page and returns the click's instant (performance.now()). */
const CLICK_LINK = `(href) => {
  const link = document.querySelector('nav[aria-label="Main"] a[href="' + href + '"]');
  if (!link) throw new Error('no link to ' + href + ' in the sidebar');
  const at = performance.now();
  link.click();
  return at;
}`;

export interface UiFigures {
  baseline: UiLoad[];
  /** Per page: cold loads (with where their time went) and in-app navigations. */
  pages: { spec: PageSpec; loads: UiLoad[]; phases: UiPhases[]; navigations: UiLoad[] }[];
  baselinePhases: UiPhases[];
  /** Search: from the request's start to the first hit (readyMs), and from the keystroke. */
  search: { loads: UiLoad[]; fromKeystrokeMs: number[] };
  /** Cold loads against the blank page. */
  summaries: UiPageSummary[];
  /** In-app navigations (and Search), against the issue's absolute targets. */
  navSummaries: UiPageSummary[];
}

export async function measureUiPages(file: string, log: (line: string) => void, loads = UI_LOADS): Promise<UiFigures> {
  const desk = await startShippedDesk(file, { ui: true });
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-ui-profile-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    viewport: { width: 1440, height: 900 },
  });
  try {
    const open = async (spec: PageSpec): Promise<{ page: Page; load: UiLoad; phases: UiPhases }> => {
      const page = await context.newPage();
      await page.addInitScript({ content: `(${INSTRUMENT})(${JSON.stringify(spec.ready)});` });
      // The token rides in the fragment, as `npm start` prints it; the UI keeps it for the tab.
      await page.goto(`${desk.url}${spec.path}#token=${encodeURIComponent(desk.token)}`, { waitUntil: 'commit' });
      const readyMs = await withTimeout(page.evaluate(() => window.__bench.ready!), spec.name);
      await settle(page);
      await confirmByRole(page, spec);
      const phases = (await page.evaluate(`(${READ_PHASES})(${readyMs})`)) as UiPhases;
      return { page, load: { readyMs, longestTaskMs: Math.max(0, ...phases.longTasks.map((t) => t.duration)) }, phases };
    };
    const loadPage = async (spec: PageSpec): Promise<{ load: UiLoad; phases: UiPhases }> => {
      const { page, load, phases } = await open(spec);
      await page.close();
      return { load, phases };
    };
    /** Longest of the tasks that ended after `from` (ms since navigation), 0 when none. */
    const longestSince = async (page: Page, from: number) => {
      const longTasks = await page.evaluate(() => window.__bench.longTasks);
      return Math.max(0, ...longTasks.filter((t) => t.start + t.duration >= from).map((t) => t.duration));
    };
    const navigate = async (spec: PageSpec): Promise<UiLoad> => {
      const { page } = await open(BASELINE);
      try {
        const watching = page.evaluate((checks) => window.__bench.watch(checks), spec.ready);
        const clickedAt = (await page.evaluate(`(${CLICK_LINK})(${JSON.stringify(spec.path)})`)) as number;
        const shownAt = await withTimeout(watching, `${spec.name} (navigation)`);
        await settle(page);
        await confirmByRole(page, spec);
        return { readyMs: shownAt - clickedAt, longestTaskMs: await longestSince(page, clickedAt) };
      } finally {
        await page.close();
      }
    };
    const search = async (): Promise<{ load: UiLoad; fromKeystrokeMs: number }> => {
      const { page } = await open(BASELINE);
      try {
        const box = page.getByRole('combobox', { name: 'Search the desk' });
        await box.focus();
        const typedAt = await page.evaluate(() => performance.now());
        const watching = page.evaluate((hit) => window.__bench.watch([hit]), SEARCH_HIT);
        await box.fill(SEARCH_QUERY);
        const shownAt = await withTimeout(watching, 'Search');
        if (!(await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().isVisible())) throw new Error('Search: no hit visible by role');
        const requestStart = await page.evaluate(() => {
          const entries = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/search?'));
          return entries.length > 0 ? entries[entries.length - 1].startTime : Number.NaN;
        });
        if (Number.isNaN(requestStart)) throw new Error('Search: no request to /api/v1/search was made');
        await settle(page);
        return { load: { readyMs: shownAt - requestStart, longestTaskMs: await longestSince(page, typedAt) }, fromKeystrokeMs: shownAt - typedAt };
      } finally {
        await page.close();
      }
    };

    const figures: UiFigures = { baseline: [], baselinePhases: [], pages: UI_PAGES.map((spec) => ({ spec, loads: [], phases: [], navigations: [] })), search: { loads: [], fromKeystrokeMs: [] }, summaries: [], navSummaries: [] };
    for (let round = 0; round <= loads; round++) {
      const warmUp = round === 0;
      const base = await loadPage(BASELINE);
      if (!warmUp) {
        figures.baseline.push(base.load);
        figures.baselinePhases.push(base.phases);
      }
      for (const p of figures.pages) {
        const { load, phases } = await loadPage(p.spec);
        const navigation = await navigate(p.spec);
        if (!warmUp) {
          p.loads.push(load);
          p.phases.push(phases);
          p.navigations.push(navigation);
        }
      }
      const s = await search();
      if (!warmUp) {
        figures.search.loads.push(s.load);
        figures.search.fromKeystrokeMs.push(s.fromKeystrokeMs);
      }
      log(`ui pages: ${warmUp ? 'warm-up' : `round ${round}/${loads}`} done`);
    }
    figures.summaries = figures.pages.map((p) => summarisePage(p.spec.name, p.loads, figures.baseline));
    figures.navSummaries = [...figures.pages.map((p) => summarisePage(p.spec.name, p.navigations, figures.baseline)), summarisePage('Search', figures.search.loads, figures.baseline)];
    return figures;
  } finally {
    await context.close();
    fs.rmSync(profileDir, { recursive: true, force: true });
    await desk.stop();
  }
}

const fixed = (n: number, digits = 0) => (Number.isNaN(n) ? '-' : n.toFixed(digits));

/** The figures as tables: in-app navigations against the issue's targets, then cold loads beside the blank page. */
export function uiTable(figures: UiFigures): string[] {
  const baseP50 = median(figures.baseline.map((l) => l.readyMs));
  const baseLongest = Math.max(...figures.baseline.map((l) => l.longestTaskMs));
  const table = (head: string[], rows: string[][]) => {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    return [line(head), ...rows.map(line)];
  };
  const navigations = table(
    ['in-app navigation (sidebar click)', 'ready p50 ms', 'max ms', 'longest task ms', 'its p50 ms', '< 300 / 200 ms'],
    figures.navSummaries.map((s) => [s.name, fixed(s.p50Ms), fixed(s.maxMs), fixed(s.longestTaskMs), fixed(s.longestTaskP50Ms), s.absoluteOk ? 'yes' : 'NO']),
  );
  const loads = table(
    ['cold load (a new tab)', 'ready p50 ms', 'max ms', 'x baseline', 'longest task ms', 'x baseline', 'its p50 ms', '< 300 / 200 ms', 'verdict'],
    [
      [BASELINE.name, fixed(baseP50), fixed(Math.max(...figures.baseline.map((l) => l.readyMs))), '1', fixed(baseLongest), '1', fixed(median(figures.baseline.map((l) => l.longestTaskMs))), '', ''],
      ...figures.summaries.map((s) => [s.name, fixed(s.p50Ms), fixed(s.maxMs), fixed(s.ratio, 2), fixed(s.longestTaskMs), fixed(s.longTaskRatio, 2), fixed(s.longestTaskP50Ms), s.absoluteOk ? 'yes' : 'no', s.ok ? 'ok' : 'MISSED']),
    ],
  );
  return [
    `UI at full size: ${figures.baseline.length} loads per page after a warm-up, Chromium 1440x900 with a profile on disk, the shipped desk serving the built UI`,
    ...navigations,
    ...loads,
    `Search: from the debounced request's start to the first hit; from the keystroke (the box waits for typing to pause) p50 ${fixed(median(figures.search.fromKeystrokeMs))} ms`,
    'Where the time goes (p50 over the loads, ms since navigation; requests made before the list showed, with their own p50 duration):',
    ...phaseLines('baseline', figures.baseline.map((l, i) => ({ readyMs: l.readyMs, phases: figures.baselinePhases[i] }))),
    ...figures.pages.flatMap((p) => phaseLines(p.spec.name, p.loads.map((l, i) => ({ readyMs: l.readyMs, phases: p.phases[i] })))),
  ];
}
