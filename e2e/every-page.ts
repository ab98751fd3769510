import { expect, type Page } from '@playwright/test';
import type { RunningCliDesk } from './desk';

/**
 * Every page of the app and of the public site, for the specs that visit them all (accessibility,
 * layout): the addresses of a desk, and the data that turns its empty pages into filled ones,
 * seeded through the API so one desk serves a whole spec file.
 */

export interface DeskPage {
  /** What a failure names. */
  name: string;
  path: string;
  /** A page that shows nothing of the desk's data looks the same empty and filled: checked once. */
  static?: boolean;
  /** Brings the page into a state worth its own check (details opened, results shown). */
  prepare?: (page: Page) => Promise<void>;
}

/** The ids the filled pages point at (a task, an output, a source, a memory entry, a share link). */
export interface Seeded {
  taskId: string;
  artifactId: string;
  sourceId: string;
  memoryId: string;
  workLogPath: string;
}

/** The app's pages that need no data of their own. */
export const APP_PAGES: DeskPage[] = [
  { name: 'Today', path: '/today' },
  { name: 'Signals', path: '/signals' },
  { name: 'Sources', path: '/sources' },
  { name: 'Tasks', path: '/tasks' },
  { name: 'Outputs', path: '/outputs' },
  { name: 'Memory', path: '/memory' },
  { name: 'Cost', path: '/cost' },
  { name: 'Runs', path: '/runs' },
  { name: 'Activity', path: '/activity' },
  { name: 'Roadmap votes', path: '/roadmap-votes' },
  { name: 'Settings', path: '/settings' },
  { name: 'Onboarding', path: '/onboarding', static: true },
  { name: 'Onboarding preview', path: '/onboarding?template=specialty-coffee-shop', static: true },
  { name: 'Not found', path: '/no-such-page', static: true },
];

/** The pages of one item, once there is data. */
export const itemPages = (s: Seeded): DeskPage[] => [
  { name: 'A task', path: `/tasks/${s.taskId}` },
  { name: 'An output', path: `/outputs/${s.artifactId}` },
  { name: 'A source', path: `/sources/${s.sourceId}` },
  { name: 'A memory entry', path: `/memory/${s.memoryId}` },
];

/** Filled pages in the states a click or a key opens: what is hidden at first is checked too. */
export const openedStates = (s: Seeded): DeskPage[] => [
  {
    name: 'A cycle opened',
    path: '/runs',
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Show what it read and produced' }).first().click();
      await expect(page.getByRole('heading', { name: 'Produced' })).toBeVisible();
    },
  },
  {
    name: 'A reply being written',
    path: `/tasks/${s.taskId}`,
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Reply' }).first().click();
    },
  },
  {
    name: 'Search results',
    path: '/today',
    prepare: async (page) => {
      await page.getByRole('combobox', { name: 'Search the desk' }).fill('billing');
      await expect(page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first()).toBeVisible();
    },
  },
  {
    name: 'Review queue with its key help',
    path: '/outputs',
    prepare: async (page) => {
      await page.keyboard.press('Shift+Slash');
      await expect(page.getByRole('region', { name: 'Keyboard shortcuts' })).toBeVisible();
    },
  },
];

/** The public site: server-rendered HTML, no token. */
export const PUBLIC_PAGES: DeskPage[] = [
  { name: 'Public templates', path: '/templates' },
  { name: 'Public template', path: '/templates/specialty-coffee-shop' },
  { name: 'Public changelog', path: '/changelog' },
  { name: 'Public blog', path: '/blog' },
  { name: 'Public roadmap', path: '/roadmap' },
  { name: 'Public integrations', path: '/integrations' },
  { name: 'Public pricing', path: '/pricing' },
];

/**
 * The public pages reached from a link of another page (the first template category, blog post, tag
 * and author, changelog release), so the list follows the content of the build.
 */
export async function linkedPublicPages(page: Page, baseUrl: string): Promise<DeskPage[]> {
  const firstHref = async (from: string, pattern: RegExp): Promise<string> => {
    await page.goto(baseUrl + from);
    const hrefs = await page.locator('main a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    const href = hrefs.find((h) => pattern.test(h));
    if (href === undefined) throw new Error(`no link matching ${pattern} on ${from}`);
    return href;
  };
  return [
    { name: 'Public template category', path: await firstHref('/templates', /^\/templates\/category\//) },
    { name: 'Public blog post', path: await firstHref('/blog', /^\/blog\/(?!tag\/|author\/)[^/]+$/) },
    { name: 'Public blog tag', path: await firstHref('/blog', /^\/blog\/tag\//) },
    { name: 'Public blog author', path: await firstHref('/blog', /^\/blog\/author\//) },
    { name: 'Public changelog release', path: await firstHref('/changelog', /^\/changelog\/[^/]+$/) },
  ];
}

/**
 * Fills a desk the way a first week does: a template's memories and signals, more signals, a manual
 * source, tasks with notes and a comment, a cycle (outputs waiting for review), a member, a task
 * template, an outbound subscription, a roadmap vote and a shared work log.
 */
export async function seedDesk(desk: RunningCliDesk): Promise<Seeded> {
  const ok = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await desk.api<T>(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  await ok('POST', '/api/v1/workspace/onboarding-template/apply', { key: 'specialty-coffee-shop' });
  const source = await ok<{ id: string }>('POST', '/api/v1/sources', { type: 'manual', label: 'Front counter notes' });
  for (const [i, title] of ['Customer asks for annual billing', 'Competitor cut prices by 10 %', 'Disk almost full on the backup server', 'Partner proposes a workshop in Lisbon'].entries()) {
    await ok('POST', '/api/v1/signals', { kind: 'news', priority: i === 0 ? 'high' : 'normal', title, detail: `${title}: details from the field.`, sourceUrl: 'https://example.com/x' });
  }
  const memory = await ok<{ id: string }>('POST', '/api/v1/memory', { kind: 'fact', title: 'Annual plans get two months free', content: 'Decided in March; applies to every plan.', importance: 7, tags: ['pricing'] });
  const task = await ok<{ id: string }>('POST', '/api/v1/tasks', { title: 'Annual billing FAQ', summary: 'Write the FAQ for annual billing.', tags: ['pricing'], priority: 'high' });
  await ok('POST', `/api/v1/tasks/${task.id}/notes`, { text: 'Start from the support tickets.' });
  const invite = await ok<{ id: string }>('POST', '/api/v1/workspace/invites', { email: 'ada@example.com', role: 'editor' });
  const ada = await ok<{ id: string }>('POST', `/api/v1/workspace/invites/${invite.id}/accept`, { name: 'Ada' });
  await ok('POST', `/api/v1/tasks/${task.id}/comments`, { text: '@Owner can you review this?', asUserId: ada.id });
  const run = await ok<{ status: string }>('POST', '/api/v1/runs');
  expect(run.status).toBe('completed');
  const artifacts = await ok<{ artifacts: { id: string }[] }>('GET', '/api/v1/artifacts?status=ready');
  expect(artifacts.artifacts.length).toBeGreaterThan(0);
  await ok('POST', '/api/v1/workspace/task-templates', { label: 'Weekly report', title: 'Weekly report', summary: 'What happened this week.', kind: 'writing', deliverableType: 'summary' });
  await ok('POST', '/api/v1/outbound/subscriptions', { url: 'http://127.0.0.1:9/hooks', events: ['task.created'], label: 'Local hook' });
  await ok('POST', '/api/v1/roadmap-items/' + (await firstRoadmapKey(desk)) + '/vote');
  const share = await ok<{ sharePath: string }>('POST', `/api/v1/tasks/${task.id}/share-work-log`, { enable: true });
  return { taskId: task.id, artifactId: artifacts.artifacts[0]!.id, sourceId: source.id, memoryId: memory.id, workLogPath: share.sharePath };
}

async function firstRoadmapKey(desk: RunningCliDesk): Promise<string> {
  const res = await fetch(`${desk.baseUrl}/api/v1/roadmap-items`);
  const body = (await res.json()) as { phases: { items: { key: string }[] }[] };
  return body.phases[0]!.items[0]!.key;
}

/**
 * Opens a page and waits until it shows its content: the main heading, no "Loading…" left. Through
 * the address bar, as a typed address or a reload does; or `inApp`, as a link of the app does, from
 * another page of the app already open (the router follows history.pushState: no reload). The new
 * page has arrived when the app moves focus to its heading, as it does after every navigation to
 * another page: until then the old page's heading would pass for the new one's. A page with a state
 * to prepare, or on the same path as the open one (another query), is loaded afresh.
 */
export async function openPage(page: Page, baseUrl: string, p: DeskPage, options: { inApp?: boolean } = {}): Promise<void> {
  const samePath = options.inApp && (await page.evaluate(() => window.location.pathname)) === new URL(p.path, baseUrl).pathname;
  if (options.inApp && p.prepare === undefined && !samePath) {
    // Focus leaves the old heading first, or it would pass for the new one.
    await page.evaluate((path) => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.history.pushState(null, '', path);
    }, p.path);
    await expect(page.locator('main h1').first(), `${p.name}: the app's focus on the new page's heading`).toBeFocused();
  } else {
    await page.goto(baseUrl + p.path);
  }
  await expect(page.locator('h1').first(), p.name).toBeVisible();
  await expect(page.getByText('Loading…'), p.name).toHaveCount(0);
  await p.prepare?.(page);
}
