import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { deskForFile, expect, test } from './desk';

/**
 * The desk shows what just happened (issue 30, part 5): the UI hears the desk's event stream, so a
 * change made elsewhere (a cycle the API ran, a signal a sender pushed) shows on an open page with
 * no reload and no poll. That no poll is involved is checked, not assumed: while the stream is open
 * the page asks for the affected figures only after the change, never before it.
 */

const desk = deskForFile({ loopOff: true });

/** A model server that fails every request, as a provider in an outage does. */
async function failingModelServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'model server is down', type: 'server_error' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A feed that holds every request until `release()`, then answers an empty channel (no item: no signal.created). */
async function heldFeedServer(): Promise<{ url: string; release(): void; close(): Promise<void> }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((req, res) => {
    req.resume();
    void gate.then(() => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end('<?xml version="1.0"?><rss version="2.0"><channel><title>Quiet</title><link>http://127.0.0.1/</link><description>Nothing yet</description></channel></rss>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml`,
    release,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Counts the page's loads of one API path from now on: `sent` when a load leaves the browser (a route
 * sees it first), `answered` once its answer is handed back (or the page gave it up).
 */
async function loadsOf(page: Page, pathname: string): Promise<{ sent: number; answered: number }> {
  const loads = { sent: 0, answered: 0 };
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      loads.sent++;
      try {
        await route.fulfill({ response: await route.fetch() });
      } catch {
        // The page gave the request up (a newer load replaced it).
      } finally {
        loads.answered++;
      }
    },
  );
  return loads;
}

async function openLive(page: Page, path: string) {
  await page.goto(desk.openUrl);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: path }).click();
  // The header carries the stream's state: open means events arrive and polling is off.
  await expect(page.getByRole('region', { name: 'Loop' })).toHaveAttribute('data-live', 'open');
}

test('a failed cycle turns the header amber from its event, with a link to the run that says why; Today counts it apart', async ({ page }) => {
  const model = await failingModelServer();
  try {
    const saved = await desk.api('PUT', '/api/v1/workspace/engine', { engine: 'openai', baseUrl: model.url, model: 'gpt-4o-mini', apiKey: 'sk-test-not-a-key' });
    expect(saved.status).toBe(200);
    await desk.api('POST', '/api/v1/signals', { kind: 'note', priority: 'normal', title: 'Something for the cycle to read', detail: 'A note.' });

    await openLive(page, 'Today');
    const header = page.getByRole('region', { name: 'Loop' });
    const state = header.getByTestId('loop-state');
    await expect(state).toHaveText('Loop off');
    await expect(page.getByRole('link', { name: /^Cycles/ })).toBeVisible();
    const stats = await loadsOf(page, '/api/v1/stats');
    const today = await loadsOf(page, '/api/v1/workspace/today');

    // The cycle runs through the API, not the page: only the desk's events can tell the page.
    const run = await desk.api<{ id: string; status: string; errorMessage: string }>('POST', '/api/v1/runs');
    expect(run.body.status).toBe('failed');
    expect(stats.sent, 'no poll of the header between opening the stream and the cycle').toBe(0);

    await expect(state).toHaveText('Last cycle failed');
    await expect(state).toHaveClass(/loop-header__state--alert/);
    // The amber of the tokens (--warning #94600f on --warning-soft), not the green of "Loop on".
    await expect(state).toHaveCSS('color', 'rgb(148, 96, 15)');
    await expect.poll(() => stats.sent).toBeGreaterThan(0);
    // Today counts the failed cycle apart from the completed ones.
    await expect(page.getByRole('link', { name: /^Cycles/ })).toContainText('1 failed');
    await expect.poll(() => today.sent).toBeGreaterThan(0);
    await expectAccessible(page, '.loop-header');

    await header.getByRole('link', { name: 'Why the last cycle failed' }).click();
    await expect(page).toHaveURL(new RegExp(`/runs\\?run=${run.body.id}$`));
    const item = page.locator('li.run-item.is-target');
    await expect(item).toBeFocused();
    await expect(item).toContainText(run.body.errorMessage);
  } finally {
    await desk.api('PUT', '/api/v1/workspace/engine', { engine: 'local' });
    await model.close();
  }
});

test('a signal pushed to the webhook appears on an open Signals page from its event', async ({ page }) => {
  // Counted from the page's first load, so a load still out at the push is seen.
  const signals = await loadsOf(page, '/api/v1/signals');
  await openLive(page, 'Signals');
  const list = page.getByRole('list', { name: 'Signals' }).or(page.getByText(/No signals yet/));
  await expect(list.first()).toBeVisible();
  // The page's own loads have been answered: a load still out could bring the pushed signal without the event.
  await expect.poll(() => signals.sent - signals.answered).toBe(0);
  const before = signals.sent;

  const pushed = await fetch(`${desk.baseUrl}/api/webhooks/signals/${desk.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Pushed while the page was open' }),
  });
  expect(pushed.status).toBe(201);
  expect(signals.sent, 'no poll of the list between opening the stream and the push').toBe(before);

  await expect(page.getByRole('heading', { name: 'Pushed while the page was open' })).toBeVisible();
  expect(signals.sent - before, 'the list refreshed for the event').toBeGreaterThan(0);
});

test('a feed row leaves "Pending · Never synced" once its first poll succeeds, even with no new item', async ({ page }) => {
  const feed = await heldFeedServer();
  try {
    const created = await desk.api<{ id: string }>('POST', '/api/v1/sources', { type: 'rss', label: 'Quiet feed', url: feed.url });
    expect(created.status).toBe(201);
    await openLive(page, 'Sources');
    const row = page.getByRole('row', { name: /^Select Quiet feed/ });
    await expect(row).toContainText('Pending');
    await expect(row).toContainText('Never synced');
    const sources = await loadsOf(page, '/api/v1/sources');

    feed.release();
    const polled = await desk.api('POST', `/api/v1/sources/${created.body.id}/poll`);
    expect(polled.status).toBe(200);
    expect(sources.sent, 'no poll of the list between opening the stream and the feed answering').toBe(0);

    // source.connected is the only event of this poll (the channel is empty).
    await expect(row).toContainText('Connected');
    await expect(row).toContainText('Synced');
    await expect(row).not.toContainText('Never synced');
  } finally {
    feed.release();
    await feed.close();
  }
});

test("a cap saved elsewhere shows at once in the header and on Cost, and a cycle's spend moves Cost's figure without a reload", async ({ page }) => {
  await openLive(page, 'Cost');
  const amount = page.locator('.cost-today__amount');
  await expect(amount).toBeVisible();
  const header = page.getByRole('region', { name: 'Loop' });
  const costToday = await loadsOf(page, '/api/v1/cost/today');

  expect((await desk.api('PATCH', '/api/v1/workspace/cost-cap', { dailyCostCapUsdCents: 4321 })).status).toBe(200);
  await expect(amount).toContainText('of $43.21 cap');
  await expect(header).toContainText('of $43.21');

  const before = await amount.textContent();
  await desk.api('POST', '/api/v1/signals', { kind: 'note', priority: 'normal', title: 'Work for a priced cycle', detail: 'The built-in engine reads this.' });
  const calls = costToday.sent;
  const run = await desk.api<{ status: string; estimatedCostUsd: number }>('POST', '/api/v1/runs');
  expect(run.body.status).toBe('completed');
  expect(run.body.estimatedCostUsd).toBeGreaterThan(0);
  expect(costToday.sent, 'no poll of Cost between the cap event and the cycle').toBe(calls);
  await expect(amount).not.toHaveText(before!);
  await expect(amount).toContainText('of $43.21 cap');
});
