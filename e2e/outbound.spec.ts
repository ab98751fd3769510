import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect, test, startCliDesk, type RunningCliDesk } from './desk';

/**
 * Settings › Webhooks, end to end: a subscription created in the UI (secret shown once), a change
 * made over the API delivered to a receiver on this machine and verified with the reference
 * Standard Webhooks library, the delivery in the log, a test send from the UI.
 */

let desk: RunningCliDesk;
let receiver: http.Server;
const received: { headers: Record<string, string>; body: string }[] = [];

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  desk = await startCliDesk();
});

test.afterAll(async () => {
  await desk?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

test('a subscription made in the UI receives signed events; the log shows them; a test send reports its outcome', async ({ page }) => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  await page.goto(desk.openUrl);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Webhooks' }).click();
  const section = page.getByRole('region', { name: 'Webhooks' });
  const form = section.getByRole('form', { name: 'New webhook subscription' });
  await form.getByLabel('Receiver URL').fill(url);
  await form.getByLabel('Label').fill('Local bot');
  await form.getByLabel('All task events').check();
  await form.getByRole('button', { name: 'Create subscription' }).click();
  const secretBox = section.getByRole('region', { name: 'Signing secret' });
  await expect(secretBox.getByText(/you won.t see it again/)).toBeVisible();
  const secret = await secretBox.getByRole('textbox', { name: 'Signing secret' }).inputValue();
  expect(secret).toMatch(/^whsec_/);
  await secretBox.getByRole('button', { name: 'I have stored it' }).click();
  await expect(section.getByRole('region', { name: 'Signing secret' })).toHaveCount(0);

  const task = await desk.api<{ id: string }>('POST', '/api/v1/tasks', { title: 'Ship the webhooks', summary: 'Deliver every event' });
  expect(task.status).toBe(201);
  await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0);
  const envelope = new Webhook(secret).verify(received[0].body, received[0].headers) as { event: string; data: { taskId: string } };
  expect(envelope).toMatchObject({ event: 'task.created', data: { taskId: task.body.id } });

  const log = section.getByRole('table', { name: 'Delivery log' });
  // The event made the section poll every 2 s: the attempt shows without waiting for the 15 s poll.
  await expect(log.getByRole('row').filter({ hasText: 'task.created' })).toBeVisible({ timeout: 8_000 });
  await section.getByRole('button', { name: 'Send test to Local bot' }).click();
  await expect(section.getByText(/Test Delivered: HTTP 204/)).toBeVisible();
  expect(received.some((r) => JSON.parse(r.body).event === 'artifact.test')).toBe(true);
});
