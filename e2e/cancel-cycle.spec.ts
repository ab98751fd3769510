import { type Locator, type Page } from '@playwright/test';
import { startChatServer, type ChatServer } from '../server/testing/fakes/chat-server';
import { expectAccessible } from './axe';
import { expect, test, startCliDesk, type RunningCliDesk, lookAt } from './desk';

/**
 * A cycle you can watch and stop: the desk's engine is an OpenAI-compatible server on 127.0.0.1
 * that never answers; Run now shows the cycle's phase in the header, Cancel (reached and pressed by
 * keyboard) stops it, and the Runs page lists it as cancelled. Checked at 1024 and 1440 px.
 */

let chat: ChatServer;
let desk: RunningCliDesk;
test.beforeAll(async () => {
  chat = await startChatServer();
  chat.answer({ hang: true });
  desk = await startCliDesk({ env: { DESK_ENGINE: 'openai', DESK_OPENAI_BASE_URL: chat.baseUrl, DESK_OPENAI_API_KEY: 'sk-test-e2e-cancel-0123456789', DESK_MODEL: 'gpt-4o-mini' } });
  // Only the button runs cycles here.
  expect((await desk.api('PATCH', '/api/v1/workspace/loop', { loopState: 'off' })).status).toBe(200);
  expect((await desk.api('POST', '/api/v1/signals', { kind: 'review', priority: 'high', title: 'Checkout fails on Safari', detail: 'Three customers wrote in today.' })).status).toBe(201);
});
test.afterAll(async () => {
  await desk?.stop();
  await chat?.close();
});

/** Tabs through the page until `target` has focus (keyboard reachability); fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('not reachable by Tab');
}

/** Nothing in the header's bar runs past the window's width (it wraps instead). */
async function fitsWidth(page: Page): Promise<void> {
  const overflow = await page.getByRole('region', { name: 'Loop' }).evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test('Run now against a provider that never answers: watch the cycle, cancel it by keyboard, see it cancelled', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto(desk.openUrl);
  const header = page.getByRole('region', { name: 'Loop' });
  await expect(header.getByText('Loop off')).toBeVisible();
  const asked = chat.requests.length;
  await header.getByRole('button', { name: 'Run now' }).click();

  // The request reached the provider, which holds it: the header shows the cycle and its Cancel.
  await expect.poll(() => chat.requests.length, { timeout: 20_000 }).toBe(asked + 1);
  // The phase while the call waits, with the bound the call was given.
  const phase = header.getByRole('status').filter({ hasText: /^Waiting on the model$/ });
  await expect(phase).toBeVisible();
  const cancel = header.getByRole('button', { name: 'Cancel the cycle' });
  await expect(cancel).toBeVisible();
  await expect(header.getByRole('button', { name: 'Run now' })).toBeDisabled();
  await fitsWidth(page);
  await lookAt(page, 'running-1024');
  await expectAccessible(page, '.loop-header');
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(cancel).toBeVisible();
  await fitsWidth(page);
  await lookAt(page, 'running-1440');

  // Keyboard only: Tab to Cancel, press Enter.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await tabTo(page, cancel);
  await page.keyboard.press('Enter');
  await expect(header.getByText('Cycle cancelled: nothing was written and nothing was billed.')).toBeVisible({ timeout: 20_000 });
  await expect(header.getByRole('button', { name: 'Run now' })).toBeEnabled();
  await expect(header.getByRole('button', { name: 'Run now' })).toBeFocused();
  await expect(cancel).toHaveCount(0);
  await page.setViewportSize({ width: 1024, height: 800 });
  await fitsWidth(page);

  // The Runs page lists it as cancelled, with the operator's message and no charge.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
  const ours = page.getByRole('list', { name: 'Runs' }).locator(':scope > li').first();
  await expect(ours.getByText('cancelled', { exact: true })).toBeVisible();
  await expect(ours.getByText(/^Cancelled by the operator/)).toBeVisible();
  await expect(ours.getByText('$0.00')).toBeVisible();
  await ours.getByRole('button', { name: 'Show what it read and produced' }).click();
  await expect(ours.getByText('Budget')).toBeVisible();
  await lookAt(page, 'runs-1024', { fullPage: true });
  await expectAccessible(page, '.run-list');

  // The server agrees: failed with cancelledAt, nothing applied (the signal is still new).
  const runs = (await desk.api<{ runs: { status: string; cancelledAt: string | null; produced: { createdTaskIds: string[] } }[] }>('GET', '/api/v1/runs')).body.runs;
  expect(runs[0]).toMatchObject({ status: 'failed', produced: { createdTaskIds: [] } });
  expect(runs[0].cancelledAt).not.toBeNull();
  expect((await desk.api<{ signals7d: { untriaged: number } }>('GET', '/api/v1/stats')).body.signals7d.untriaged).toBe(1);
});
