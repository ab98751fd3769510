import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page } from '@playwright/test';
import { startTestRelay, type TestRelay } from '../server/testing/fakes/relay-server';
import { expect, test, startCliDesk, type RunningCliDesk, lookAt } from './desk';

/**
 * A user adds an RSS feed in the UI (previewing it first), polls it, and sees its items as signals;
 * filters, pins and reacts; finds the inbound webhook in Settings › Integrations and pushes a signal
 * through it, locally and through a relay; pauses the source until a date.
 */

const FEED_XML = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/launch-feed.xml'), 'utf8');
const FEED_TITLE = 'Northwind Launch Notes';
const ITEMS = ['Northwind ships offline mode', 'Northwind raises team prices by 15%', 'Northwind is hiring solution engineers'];

interface FeedServer {
  url: string;
  requests: number;
  close(): Promise<void>;
}

/** The feed this test reads, on 127.0.0.1 (free port): /feed.xml answers the fixture, anything else 404. */
async function startFeedServer(): Promise<FeedServer> {
  const state = { requests: 0 };
  const server = http.createServer((req, res) => {
    if (req.url === '/feed.xml') {
      state.requests += 1;
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(FEED_XML);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A time as a datetime-local value; the browser runs on this machine, in its timezone. */
function localInput(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

let desk: RunningCliDesk;
let feed: FeedServer;
let relay: TestRelay;

test.beforeAll(async () => {
  feed = await startFeedServer();
  relay = await startTestRelay();
  desk = await startCliDesk();
});

test.afterAll(async () => {
  await desk?.stop();
  await relay?.close();
  await feed?.close();
});

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
const signalList = (page: Page) => page.getByRole('list', { name: 'Signals' });
const signalItem = (page: Page, title: string) => signalList(page).getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

interface SourceJson {
  id: string;
  label: string;
  paused: boolean;
  pausedUntilAt: string | null;
}
interface SignalJson {
  id: string;
  title: string;
  pinned: boolean;
  sourceId: string | null;
  reactions: { emoji: string; count: number; reacted: boolean }[];
}

test('add a feed with preview, poll it, work its signals, push through the webhook and the relay, pause the source', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 422 .* @ .*\/api\/v1\/(sources\/preview|signals|integrations\/relay|sources\/src_\w+\/pause-until)$/, 'a bad feed, signal, relay URL and pause are refused on purpose; each refusal shows where it was entered');
  test.setTimeout(120_000);
  await page.goto(desk.openUrl);
  await expect(page).not.toHaveURL(/token=/);

  // ---- A fresh desk opens on Today (Home) with its first steps; Signals explains where signals come from; its link leads to the webhook.
  await expect(page).toHaveURL(/\/today$/);
  await expect(page.getByRole('heading', { name: 'Get started' })).toBeVisible();
  await nav(page, 'Signals');
  await expect(page).toHaveURL(/\/signals$/);
  await expect(page.getByRole('heading', { name: 'No signals yet' })).toBeVisible();
  await lookAt(page, 'signals-empty');
  await page.getByRole('link', { name: 'Settings › Integrations' }).click();
  await expect(page).toHaveURL(/\/settings\/integrations$/);
  await expect(page.getByRole('region', { name: 'Integrations' })).toBeInViewport();

  // ---- Sources: an empty desk opens the add form at once.
  await nav(page, 'Sources');
  await expect(page).toHaveURL(/\/sources$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sources' })).toBeVisible();
  const addForm = page.getByRole('form', { name: 'Add a source' });
  await expect(addForm.getByLabel('Type')).toHaveValue('rss');
  const url = addForm.getByLabel('Feed URL');

  // A URL that is not a feed: the preview's error sits next to the URL field, nothing is saved.
  await url.fill(`${feed.url}/missing.xml`);
  await addForm.getByRole('button', { name: 'Preview' }).click();
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(url).toHaveAccessibleDescription(/404/);
  expect((await desk.api<{ total: number }>('GET', '/api/v1/sources')).body.total).toBe(0);

  // The real feed: its title and items show before saving; the title becomes the default label.
  await url.fill(`${feed.url}/feed.xml`);
  await addForm.getByRole('button', { name: 'Preview' }).click();
  const preview = addForm.getByRole('region', { name: 'Feed preview' });
  await expect(preview.getByRole('heading', { name: FEED_TITLE })).toBeVisible();
  for (const title of ITEMS) await expect(preview.getByText(title)).toBeVisible();
  await expect(preview.getByText('RSS · 3 items')).toBeVisible();
  await expect(url).not.toHaveAttribute('aria-invalid', 'true');
  await expect(addForm.getByLabel('Label')).toHaveValue(FEED_TITLE);
  expect((await desk.api<{ total: number }>('GET', '/api/v1/sources')).body.total).toBe(0);
  await lookAt(page, 'sources-preview', { fullPage: true });

  await addForm.getByLabel('Label').fill('Northwind notes');
  await addForm.getByRole('button', { name: 'Save source' }).click();
  await expect(page.getByText('Added Northwind notes; it is polled within a minute, or use Poll now.')).toBeVisible();
  const sources = (await desk.api<{ sources: SourceJson[] }>('GET', '/api/v1/sources')).body.sources;
  expect(sources.map((s) => s.label)).toEqual(['Northwind notes']);
  const sourceId = sources[0].id;

  // Poll now, as a user would rather than waiting for the scheduler (it may have polled already: then all are seen).
  const row = page.getByRole('table', { name: 'Sources' }).getByRole('row').filter({ hasText: 'Northwind notes' });
  await expect(row.getByText('workspace cadence')).toBeVisible();
  await row.getByRole('button', { name: 'Poll now' }).click();
  await expect(row.getByRole('status')).toHaveText(/^Polled: (3 new signals|0 new signals, 3 already seen)$/);
  await expect(row.getByText('Connected')).toBeVisible();
  await expect(row.getByText(/^in \d+ min$/)).toBeVisible();
  expect(feed.requests).toBeGreaterThanOrEqual(2);

  // ---- Signals: the three items arrived, attributed to the source.
  await nav(page, 'Signals');
  await expect(page.getByRole('heading', { level: 1, name: 'Signals' })).toBeVisible();
  for (const title of ITEMS) await expect(signalItem(page, title)).toBeVisible();
  await expect(signalItem(page, ITEMS[0]).getByText('Northwind notes')).toBeVisible();
  await expect(signalItem(page, ITEMS[0]).getByText('Offline mode is generally available on every plan.')).toBeVisible();
  const link = signalItem(page, ITEMS[0]).getByRole('link', { name: /northwind\.example/ });
  await expect(link).toHaveAttribute('href', 'https://northwind.example/notes/offline-mode');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);

  // A signal written by hand; a title is required (the API's message shows next to the field).
  await page.getByRole('button', { name: 'New signal' }).click();
  const addSignal = page.getByRole('form', { name: 'Add a signal' });
  await addSignal.getByRole('button', { name: 'Add signal' }).click();
  await expect(addSignal.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
  await addSignal.getByLabel('Kind').selectOption('alert');
  await addSignal.getByLabel('Priority').selectOption('high');
  await addSignal.getByLabel('Title').fill('Churn call with Contoso');
  await addSignal.getByLabel('Detail').fill('They compare us with Northwind on price.');
  await addSignal.getByRole('button', { name: 'Add signal' }).click();
  await expect(signalItem(page, 'Churn call with Contoso')).toBeVisible();
  await expect(signalItem(page, 'Churn call with Contoso').getByText('high', { exact: true })).toBeVisible();
  await expect(signalList(page).getByRole('listitem')).toHaveCount(4);

  // Filter by the source: only its three items.
  await page.getByLabel('Source', { exact: true }).selectOption({ label: 'Northwind notes' });
  await expect(signalList(page).getByRole('listitem')).toHaveCount(3);
  await expect(signalItem(page, 'Churn call with Contoso')).toHaveCount(0);
  await expect(page.getByText('3 signals from Northwind notes')).toBeVisible();

  // Pin one and react to another; the API agrees.
  const pinned = signalItem(page, ITEMS[1]);
  await pinned.getByRole('button', { name: 'Pin', exact: true }).click();
  await expect(pinned.getByRole('button', { name: 'Pinned' })).toHaveAttribute('aria-pressed', 'true');
  await expect(pinned.getByText('Pinned', { exact: true }).first()).toBeVisible();
  const reacted = signalItem(page, ITEMS[2]);
  await reacted.getByRole('button', { name: /^on target/ }).click();
  await expect(reacted.getByRole('button', { name: 'on target 🎯, 1' })).toHaveAttribute('aria-pressed', 'true');
  const listed = (await desk.api<{ signals: SignalJson[] }>('GET', `/api/v1/signals?sourceId=${sourceId}`)).body.signals;
  expect(listed).toHaveLength(3);
  expect(listed.find((s) => s.title === ITEMS[1])!.pinned).toBe(true);
  expect(listed.find((s) => s.title === ITEMS[0])!.pinned).toBe(false);
  expect(listed.find((s) => s.title === ITEMS[2])!.reactions).toEqual([{ emoji: '🎯', count: 1, userIds: expect.any(Array), reacted: true }]);
  await lookAt(page, 'signals', { fullPage: true });

  // ---- Settings › Integrations: the local webhook URL (token hidden until asked), then a push through it.
  await nav(page, 'Settings');
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Integrations' }).click();
  const integrations = page.getByRole('region', { name: 'Integrations' });
  await expect(integrations).toBeVisible();
  const localUrl = `${desk.baseUrl}/api/webhooks/signals/${desk.token}`;
  const localField = integrations.getByRole('textbox', { name: 'Local webhook URL' });
  await expect(localField).toHaveValue(new RegExp(`/api/webhooks/signals/•+${desk.token.slice(-4)}$`));
  await expect(integrations.getByText(`curl -X POST '${desk.baseUrl}/api/webhooks/signals/`)).toBeVisible();
  await integrations.getByRole('button', { name: 'Show' }).click();
  await expect(localField).toHaveValue(localUrl);
  await expect(integrations.getByLabel('curl example (local webhook)')).toHaveText(
    `curl -X POST '${localUrl}' -H 'content-type: application/json' -d '{"title":"Hello","detail":"from a script"}'`,
  );
  await expect(integrations.getByText('Disabled', { exact: true })).toBeVisible();

  const pushed = await fetch(await localField.inputValue(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Hello from a script', detail: 'from a script', kind: 'message' }),
  });
  expect(pushed.status).toBeLessThan(300);

  // A relay channel: a bad URL is refused next to the field; a good one connects and shows the relayed URL.
  const channel = integrations.getByRole('textbox', { name: 'Relay channel URL' });
  await channel.fill('ftp://relay.example/x');
  await integrations.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(channel).toHaveAttribute('aria-invalid', 'true');
  await expect(channel).toHaveAccessibleDescription(/http/);
  expect((await desk.api<{ channelUrl: string | null }>('GET', '/api/v1/integrations/relay')).body.channelUrl).toBeNull();
  const channelUrl = relay.channelUrl('desk-e2e');
  await channel.fill(channelUrl);
  await integrations.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(channel).not.toHaveAttribute('aria-invalid', 'true');
  await expect(integrations.getByRole('textbox', { name: 'Relayed webhook URL' })).toHaveValue(channelUrl);
  // The section polls every second while the relay connects.
  await expect(integrations.getByText('Connected', { exact: true })).toBeVisible({ timeout: 8_000 });
  await expect.poll(() => relay.connections(), { timeout: 10_000 }).toBe(1);

  // Someone outside posts to the relay channel; the desk receives it through the relay.
  const relayed = await fetch(channelUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Hello through the relay', detail: 'from a service on the internet', externalId: 'relay-e2e-1' }),
  });
  expect(relayed.status).toBe(200);
  // The signal's event refreshes the section: no wait for its 10 s poll.
  await expect(integrations.locator('.facts > div', { hasText: 'Delivered' }).locator('dd')).toHaveText('1', { timeout: 8_000 });
  expect((await desk.api<{ deliveredCount: number }>('GET', '/api/v1/integrations/relay')).body.deliveredCount).toBe(1);
  await lookAt(integrations, 'integrations');

  // Both pushed signals appear in Signals without a reload.
  await nav(page, 'Signals');
  await expect(signalItem(page, 'Hello from a script')).toBeVisible({ timeout: 20_000 });
  await expect(signalItem(page, 'Hello through the relay')).toBeVisible({ timeout: 20_000 });
  await expect(signalItem(page, 'Hello through the relay').getByText('Inbound webhook')).toBeVisible();

  // ---- Pause the source until a date: too far ahead is refused next to the field; two days ahead is shown.
  await nav(page, 'Sources');
  const sourceRow = page.getByRole('table', { name: 'Sources' }).getByRole('row').filter({ hasText: 'Northwind notes' }).first();
  await sourceRow.getByRole('button', { name: 'Manage' }).click();
  const pauseUntil = page.getByLabel('Pause until');
  await pauseUntil.fill(localInput(new Date(Date.now() + 20 * 86_400_000)));
  await page.getByRole('button', { name: 'Schedule pause' }).click();
  await expect(pauseUntil).toHaveAccessibleDescription(/at most 14 days ahead/);
  expect((await desk.api<SourceJson>('GET', `/api/v1/sources/${sourceId}`)).body.pausedUntilAt).toBeNull();

  const resumeAt = new Date(Date.now() + 2 * 86_400_000);
  resumeAt.setSeconds(0, 0);
  await pauseUntil.fill(localInput(resumeAt));
  await page.getByRole('button', { name: 'Schedule pause' }).click();
  await expect(sourceRow.getByText(/^Paused until /)).toBeVisible();
  await expect(page.getByText(/Paused. Resumes by itself at/)).toBeVisible();
  await expect(sourceRow.getByRole('button', { name: 'Poll now' })).toHaveCount(0);
  await expect(sourceRow.getByRole('button', { name: 'Resume' })).toBeVisible();
  const paused = (await desk.api<SourceJson>('GET', `/api/v1/sources/${sourceId}`)).body;
  expect(paused.paused).toBe(true);
  expect(paused.pausedUntilAt).toBe(resumeAt.toISOString());
  const scheduled = page.getByRole('table', { name: 'Scheduled pauses' });
  await expect(scheduled.getByText('Northwind notes')).toBeVisible();
  await expect(scheduled.getByText(/^resumes in (1 d 2\d h|2 d)$/)).toBeVisible();
  await lookAt(page, 'sources', { fullPage: true });

  // Resume from the row clears the pause.
  await sourceRow.getByRole('button', { name: 'Resume' }).click();
  await expect(sourceRow.getByRole('button', { name: 'Poll now' })).toBeVisible();
  await expect.poll(async () => (await desk.api<SourceJson>('GET', `/api/v1/sources/${sourceId}`)).body.pausedUntilAt).toBeNull();
  await expect(scheduled).toHaveCount(0);

  // ---- A source has a URL: opening /sources/<id> directly (a fresh page load) shows that source's editor.
  await page.goto(`${desk.baseUrl}/sources/${sourceId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Sources' })).toBeVisible();
  await expect(page.getByLabel('Label')).toHaveValue('Northwind notes');
  await expect(sourceRow.getByRole('button', { name: 'Close' })).toBeVisible();

  // ---- Bulk: an own cadence for the selected sources, then delete them (their signals stay).
  await sourceRow.getByRole('button', { name: 'Close' }).click();
  await sourceRow.getByRole('checkbox', { name: 'Select Northwind notes' }).check();
  const bulk = page.getByRole('toolbar', { name: 'Bulk actions' });
  await expect(bulk.getByText('1 selected')).toBeVisible();
  await bulk.getByRole('button', { name: 'Set cadence…' }).click();
  await page.getByLabel('Poll selected every (minutes)').fill('20');
  await page.getByRole('button', { name: 'Apply cadence' }).click();
  await expect(bulk.getByText('Every 20 min set on 1 source.', { exact: false })).toBeVisible();
  await expect(sourceRow.getByText('every 20 min (override)')).toBeVisible();
  expect((await desk.api<SourceJson & { pollIntervalMinutes: number }>('GET', `/api/v1/sources/${sourceId}`)).body.pollIntervalMinutes).toBe(20);

  await bulk.getByRole('button', { name: 'Delete' }).click();
  await bulk.getByRole('group', { name: /Delete 1 source\?/ }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No sources yet.', { exact: false })).toBeVisible();
  expect((await desk.api<{ total: number }>('GET', '/api/v1/sources')).body.total).toBe(0);
  const kept = (await desk.api<{ signals: SignalJson[] }>('GET', '/api/v1/signals')).body.signals.map((s) => s.title);
  expect(kept).toEqual(expect.arrayContaining(ITEMS));
});
