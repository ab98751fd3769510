import type { QueryClient } from '@tanstack/react-query';
import {
  createBrowserHistory,
  createHashHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
  type AnyRoute,
  type RouterHistory,
} from '@tanstack/react-router';
import type { IconName } from '../components/Icon';
import { QueryState } from '../components/Page';
import { validateOutputsSearch } from '../features/outputs/search';
import { validateOnboardingSearch } from '../features/onboarding/search';
import { queryClient as appQueryClient } from './providers';
import { warmActivity, warmCost, warmOutputs, warmSignals, warmTasks, warmToday } from './route-loaders';
import { NotFound, Shell } from './Shell';

/**
 * The URL of every area, as a TanStack Router route tree written in code (no file-based codegen).
 * Pages load on first visit (`lazyRouteComponent`); the main pages' loaders start their first reads
 * at navigation, beside the page's chunk (route-loaders.ts). Pages read their parameters with
 * `useParams({ strict: false })`, so a list and its detail can share one page.
 *
 * URLs: /signals · /sources · /sources/$sourceId (that source's editor opened) · /tasks ·
 * /tasks/$taskId (a task's own page, linkable from digests and notifications) · /activity ·
 * /outputs (filters as search parameters: ?status=&attention=&reviewer=&sort=) · /outputs/$artifactId (one output: content, sources, versions) · /runs (loop cycles) ·
 * /settings · /settings/$section (scrolled to that section: loop, approval, focus, archiving, cost,
 * workspace, members, templates, integrations, webhooks, badge, backups) · /memory · /memory/$memoryId (that entry
 * opened with its usage charts) · /today (Home, the start page: today, what's new, the personal
 * inbox, top tags, reactions) · /cost (spend today against the cap, what drives it).
 * Sections are path segments, not #fragments: the fragment carries the sign-in token (lib/auth.ts).
 *
 * Adding an area with a detail URL (the page reads the id with useParams), e.g. sources:
 *   routeTree: sourcesRoute.addChildren([detail(sourcesRoute, '$sourceId')])
 * and set `page: true` on its AREAS entry. A detail with a page of its own is a `page('tasks/$taskId', ...)`,
 * as tasks do.
 */

export interface Area {
  to: string;
  label: string;
  icon: IconName;
  /** Whether the area has a page; without one it is listed, greyed, as "soon" and not linked (every area has one today). */
  page: boolean;
}

/** The sidebar, in order. */
export const AREAS: readonly Area[] = [
  { to: '/today', label: 'Today', icon: 'today', page: true },
  { to: '/signals', label: 'Signals', icon: 'signals', page: true },
  { to: '/sources', label: 'Sources', icon: 'sources', page: true },
  { to: '/tasks', label: 'Tasks', icon: 'tasks', page: true },
  { to: '/outputs', label: 'Outputs', icon: 'outputs', page: true },
  { to: '/memory', label: 'Memory', icon: 'memory', page: true },
  { to: '/cost', label: 'Cost', icon: 'cost', page: true },
  { to: '/runs', label: 'Runs', icon: 'runs', page: true },
  { to: '/activity', label: 'Activity', icon: 'activity', page: true },
  // Not /roadmap: that address is the public roadmap page (server/api/public/roadmap-pages.ts).
  { to: '/roadmap-votes', label: 'Roadmap', icon: 'roadmap', page: true },
  { to: '/settings', label: 'Settings', icon: 'settings', page: true },
];

/** Where `/` leads: the first area that has a page (Today, the Home page). */
export const homePath = (areas: readonly Area[] = AREAS): string => areas.find((a) => a.page)?.to ?? '/settings';

/** The area a path belongs to (`/sources/src_1` is Sources). */
export function areaOf(pathname: string, areas: readonly Area[] = AREAS): Area | undefined {
  return areas.find((a) => pathname === a.to || pathname.startsWith(`${a.to}/`));
}

/** What every route's loader is handed: the query client the pages' hooks read (App passes its own). */
export interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Shell, notFoundComponent: NotFound });

/** A loader that starts a page's first reads at navigation (route-loaders.ts); it returns at once. */
type Warm = (qc: QueryClient) => void;

/**
 * A route whose page is a named export of a module loaded on first visit. `validateSearch` gives it
 * typed URL parameters (a search hit's /signals?signal=<id>); it must answer every key it knows.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- lazyRouteComponent's own bound for a module
function page<Path extends string, Module extends Record<string, any>, Search extends object = object>(
  path: Path,
  load: () => Promise<Module>,
  exportName: keyof Module & string,
  validateSearch?: (raw: Record<string, unknown>) => Search,
  warm?: Warm,
) {
  return createRoute({
    getParentRoute: () => rootRoute,
    path,
    validateSearch,
    component: lazyRouteComponent(load, exportName),
    loader: warm ? ({ context }) => warm(context.queryClient) : undefined,
  });
}

/** A URL parameter naming one item by id (`?signal=sig_1`), or undefined when absent or empty. */
const idParam = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);


const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: homePath(), replace: true });
  },
});

const loadSignals = () => import('../features/signals/SignalsPage');
const loadSources = () => import('../features/sources/SourcesPage');
const loadActivity = () => import('../features/activity/ActivityPage');
const loadSettings = () => import('../features/settings/SettingsPage');
const loadTasks = () => import('../features/tasks/TasksPage');
const loadTask = () => import('../features/tasks/TaskDetailPage');
const loadMemory = () => import('../features/memory/MemoryPage');
const loadOutputs = () => import('../features/outputs/OutputsPage');
const loadOutput = () => import('../features/outputs/OutputPage');
const loadRuns = () => import('../features/runs/RunsPage');
const loadCost = () => import('../features/cost/CostPage');
const loadHome = () => import('../features/home/HomePage');
const loadRoadmap = () => import('../features/roadmap/RoadmapPage');
const loadOnboarding = () => import('../features/onboarding/OnboardingPage');

/**
 * A detail URL under a page that shows the detail itself: the child renders nothing and the page reads
 * the parameter, so the page stays mounted (selection, scroll, open forms) while the detail changes.
 */
function detail<Path extends string>(parent: AnyRoute, path: Path) {
  return createRoute({ getParentRoute: () => parent, path, component: () => null });
}

const sourcesRoute = page('sources', loadSources, 'SourcesPage');
const settingsRoute = page('settings', loadSettings, 'SettingsPage');
const memoryRoute = page('memory', loadMemory, 'MemoryPage');
// The queue's filters live in the URL (/outputs?attention=overdue): notifications link to them.
// The onboarding flow: /onboarding?template=<key> opens a template's preview (the public template pages link here).
const onboardingRoute = createRoute({ getParentRoute: () => rootRoute, path: 'onboarding', validateSearch: validateOnboardingSearch, component: lazyRouteComponent(loadOnboarding, 'OnboardingPage') });
const outputsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'outputs',
  validateSearch: validateOutputsSearch,
  component: lazyRouteComponent(loadOutputs, 'OutputsPage'),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => warmOutputs(context.queryClient, deps),
});

export const routeTree = rootRoute.addChildren([
  indexRoute,
  // Search hits open /signals?signal=<id> and /tasks/<id>?comment=<id>: the page shows that item.
  page('signals', loadSignals, 'SignalsPage', (raw): { signal?: string } => ({ signal: idParam(raw.signal) }), warmSignals),
  sourcesRoute.addChildren([detail(sourcesRoute, '$sourceId')]),
  page('activity', loadActivity, 'ActivityPage', undefined, warmActivity),
  settingsRoute.addChildren([detail(settingsRoute, '$section')]),
  page('today', loadHome, 'HomePage', undefined, warmToday),
  page('tasks', loadTasks, 'TasksPage', undefined, warmTasks),
  page('tasks/$taskId', loadTask, 'TaskDetailPage', (raw): { comment?: string } => ({ comment: idParam(raw.comment) })),
  outputsRoute,
  page('outputs/$artifactId', loadOutput, 'OutputPage'),
  // The header's "Why" of a failed cycle opens /runs?run=<id>: the page points at that run.
  page('runs', loadRuns, 'RunsPage', (raw): { run?: string } => ({ run: idParam(raw.run) })),
  memoryRoute.addChildren([detail(memoryRoute, '$memoryId')]),
  page('cost', loadCost, 'CostPage', undefined, warmCost),
  page('roadmap-votes', loadRoadmap, 'RoadmapPage'),
  onboardingRoute,
]);

/**
 * The app's router. The desk serves the UI over HTTP and answers every path without an extension with
 * index.html, so paths go in the address bar; a window that loads the files directly (file://) keeps
 * them in the fragment instead. Tests pass a memory history.
 */
export function createAppRouter(history?: RouterHistory, queryClient: QueryClient = appQueryClient) {
  const fallback = typeof window !== 'undefined' && window.location.protocol === 'file:' ? createHashHistory() : createBrowserHistory();
  return createRouter({
    routeTree,
    history: history ?? fallback,
    context: { queryClient },
    defaultPendingComponent: () => <QueryState isPending error={null} />,
    // The page changes under the sidebar; start it at the top unless a page scrolls itself (sections).
    scrollRestoration: false,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
