import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { startTestDesk } from '../../testing/desk';
import { startTestReceiver, verifyWebhook, type TestReceiver } from '../../testing/fakes/webhook-receiver';
import { createTask } from '../../testing/fixtures/tasks';
import { useTestDesk } from '../../testing/use-test-desk';
import { MAX_BULK_IDS } from '../../core/input';
import { MAX_SUBSCRIPTIONS } from '../../domain/outbound/rules';

const shared = useTestDesk();
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await startTestReceiver();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer = () => ({ status: 204 });
});

const BASE = '/api/v1/outbound';
const create = async (body: Record<string, unknown> = {}) => {
  const res = await shared.desk.api('POST', `${BASE}/subscriptions`, { url: receiver.url, events: ['task.created'], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; secret: string; secretHint: string };
};
const activityKinds = async () => (await shared.desk.services.db.selectFrom('activity').select('kind').where('kind', 'in', ['outbound.subscription_created', 'outbound.subscription_updated', 'outbound.subscription_deleted', 'outbound.subscription_disabled']).orderBy('id').execute()).map((r) => r.kind);
const outboxEvents = async () => (await shared.desk.services.db.selectFrom('outboxEvents').select('event').where('event', 'like', 'outbound.%').orderBy('id').execute()).map((r) => r.event);

describe('subscriptions', () => {
  it('creates one: the secret is shown once (whsec_), GET shows its hint and the full vocabulary', async () => {
    const created = await create({ label: '  Ops bot  ', events: ['task.created', 'artifact.ready', 'task.created'] });
    expect(created).toMatchObject({ url: receiver.url, label: 'Ops bot', events: ['artifact.ready', 'task.created'], active: true, status: 'active', pendingDeliveries: 0, lastAttempt: null });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.secretHint).toBe(`whsec_…${created.secret.slice(-4)}`);
    const list = await shared.desk.api('GET', `${BASE}/subscriptions`);
    expect(list.status).toBe(200);
    expect(list.body.subscriptions).toHaveLength(1);
    expect(list.body.subscriptions[0].secret).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    const names = list.body.events.map((e: { name: string }) => e.name);
    for (const name of ['task.created', 'task.status_changed', 'task.unblocked', 'artifact.ready', 'artifact.approved', 'artifact.archived', 'signal.created', 'run.completed', 'run.failed', 'loop.state_changed', 'cost.cap_reached', 'source.quietness_warning', 'source.quietness_acked', 'source.quietness_unacked', 'artifact.test']) {
      expect(names).toContain(name);
    }
    expect(list.body.events.find((e: { name: string }) => e.name === 'task.created')).toMatchObject({ area: 'task', description: expect.any(String) });
    // the secret is in no log row, no event
    const activity = await shared.desk.services.db.selectFrom('activity').select('detail').execute();
    const events = await shared.desk.services.db.selectFrom('outboxEvents').select('payload').execute();
    expect(JSON.stringify([activity, events])).not.toContain(created.secret);
    expect(await activityKinds()).toEqual(['outbound.subscription_created']);
  });

  it('rejects bad input with a 422 naming the field, and changes nothing', async () => {
    const sub = await create();
    const post = (body: unknown) => ({ method: 'POST', path: `${BASE}/subscriptions`, body });
    await expectRejectedUnchanged(shared.desk, post({ url: 'ftp://example.com/x', events: ['task.created'] }), { field: 'url' });
    await expectRejectedUnchanged(shared.desk, post({ url: 'not a url', events: ['task.created'] }), { field: 'url' });
    await expectRejectedUnchanged(shared.desk, post({ url: receiver.url, events: [] }), { field: 'events' });
    await expectRejectedUnchanged(shared.desk, post({ url: receiver.url, events: ['task.exploded'] }));
    await expectRejectedUnchanged(shared.desk, post({ url: receiver.url, events: ['task.created'], label: 'x'.repeat(81) }), { field: 'label' });
    await expectRejectedUnchanged(shared.desk, { method: 'PATCH', path: `${BASE}/subscriptions/${sub.id}`, body: {} }, { field: 'active' });
    await expectRejectedUnchanged(shared.desk, { method: 'PATCH', path: `${BASE}/subscriptions/${sub.id}`, body: { events: [] } }, { field: 'events' });
    await expectRejectedUnchanged(shared.desk, { method: 'POST', path: `${BASE}/subscriptions/bulk`, body: { action: 'pause', subscriptionIds: [] } }, { field: 'subscriptionIds' });
    const tooMany = Array.from({ length: 51 }, (_, i) => `whk_${i}`);
    await expectRejectedUnchanged(shared.desk, { method: 'POST', path: `${BASE}/subscriptions/bulk`, body: { action: 'pause', subscriptionIds: tooMany } }, { field: 'subscriptionIds' });
    await expectRejectedUnchanged(shared.desk, { method: 'POST', path: `${BASE}/subscriptions/bulk`, body: { action: 'explode', subscriptionIds: [sub.id] } }, { field: 'action' });
    await expectRejectedUnchanged(shared.desk, { method: 'GET', path: `${BASE}/deliveries?limit=101` }, { field: 'limit' });
    await expectRejectedUnchanged(shared.desk, { method: 'GET', path: `${BASE}/deliveries?outcome=maybe` }, { field: 'outcome' });
    await expectRejectedUnchanged(shared.desk, { method: 'GET', path: `${BASE}/deliveries?cursor=zzz` }, { field: 'cursor' });
    for (const [method, path] of [
      ['PATCH', `${BASE}/subscriptions/whk_nope`],
      ['DELETE', `${BASE}/subscriptions/whk_nope`],
      ['POST', `${BASE}/subscriptions/whk_nope/test`],
      ['POST', `${BASE}/deliveries/dlv_nope/retry`],
    ] as const) {
      await expectRejectedUnchanged(shared.desk, { method, path, body: method === 'PATCH' ? { active: false } : undefined }, { status: 404 });
    }
  });

  it('at most 50 subscriptions, as many as one bulk call takes: the 51st is a 409 limit_reached', async () => {
    expect(MAX_SUBSCRIPTIONS).toBe(50);
    expect(MAX_SUBSCRIPTIONS).toBeGreaterThanOrEqual(MAX_BULK_IDS);
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) await create({ label: `n${i}` });
    await expectRejectedUnchanged(shared.desk, { method: 'POST', path: `${BASE}/subscriptions`, body: { url: receiver.url, events: ['task.created'] } }, { status: 409, error: 'limit_reached' });
  });

  it('pause, resume, edit events, delete: one activity row and one event per change, none for a no-op', async () => {
    const sub = await create();
    const patch = (body: unknown) => shared.desk.api('PATCH', `${BASE}/subscriptions/${sub.id}`, body);
    expect((await patch({ active: false })).body).toMatchObject({ active: false, status: 'paused' });
    expect((await patch({ active: false })).status).toBe(200);
    // paused: new events are not queued for it
    await createTask(shared.desk);
    await shared.desk.services.outbound.worker.settle();
    expect(receiver.received).toEqual([]);
    expect((await patch({ active: true, events: ['task.created', 'task.deleted'] })).body).toMatchObject({ active: true, status: 'active', events: ['task.created', 'task.deleted'] });
    const del = await shared.desk.api('DELETE', `${BASE}/subscriptions/${sub.id}`);
    expect(del.status).toBe(200);
    expect((await shared.desk.api('GET', `${BASE}/subscriptions`)).body.subscriptions).toEqual([]);
    expect(await activityKinds()).toEqual(['outbound.subscription_created', 'outbound.subscription_updated', 'outbound.subscription_updated', 'outbound.subscription_deleted']);
    expect(await outboxEvents()).toEqual(['outbound.subscription_created', 'outbound.subscription_updated', 'outbound.subscription_updated', 'outbound.subscription_deleted']);
  });

  it('bulk pause, resume and delete follow the bulk policy', async () => {
    const a = await create();
    const b = await create();
    const bulk = (action: string, ids: string[]) => shared.desk.api('POST', `${BASE}/subscriptions/bulk`, { action, subscriptionIds: ids });
    expect((await bulk('pause', [a.id, 'whk_missing'])).body).toEqual({ action: 'pause', affected: 1, changed: [a.id], unchanged: [], notFound: ['whk_missing'] });
    expect((await bulk('resume', [a.id, b.id])).body).toEqual({ action: 'resume', affected: 1, changed: [a.id], unchanged: [b.id], notFound: [] });
    expect((await bulk('delete', [a.id, b.id])).body).toMatchObject({ action: 'delete', affected: 2, notFound: [] });
    expect((await bulk('delete', ['whk_missing'])).body).toMatchObject({ affected: 0, notFound: ['whk_missing'] });
    expect((await shared.desk.api('GET', `${BASE}/subscriptions`)).body.subscriptions).toEqual([]);
  });
});

describe('deliveries', () => {
  it('a change is delivered signed; the log lists the attempt; a test send answers its outcome', async () => {
    const sub = await create({ events: ['task.created'] });
    const task = await createTask(shared.desk, { title: 'Ship the webhooks' });
    await shared.desk.services.outbound.worker.settle();
    expect(receiver.received).toHaveLength(1);
    expect(verifyWebhook(sub.secret, receiver.received[0], shared.desk.clock.now())).toMatchObject({ event: 'task.created', data: { taskId: task.id, title: 'Ship the webhooks' } });

    receiver.answer = () => ({ status: 500, body: 'receiver broke' });
    const test = await shared.desk.api('POST', `${BASE}/subscriptions/${sub.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ event: 'artifact.test', subscriptionId: sub.id, trigger: 'manual', outcome: 'failed', statusCode: 500, responseExcerpt: 'receiver broke', deliveryState: 'failed', attemptNumber: 1 });
    const testHook = receiver.received[1];
    expect(verifyWebhook(sub.secret, testHook, shared.desk.clock.now())).toMatchObject({ event: 'artifact.test', data: { subscriptionId: sub.id } });
    expect(testHook.headers['webhook-id']).toBe(test.body.webhookId);

    const log = await shared.desk.api('GET', `${BASE}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.deliveries.map((d: { event: string }) => d.event)).toEqual(['artifact.test', 'task.created']);
    expect(log.body.deliveries[1]).toMatchObject({ subscriptionId: sub.id, url: receiver.url, trigger: 'scheduled', outcome: 'succeeded', statusCode: 204, durationMs: expect.any(Number), nextRetryAt: null });
    expect((await shared.desk.api('GET', `${BASE}/deliveries?outcome=failed`)).body.deliveries.map((d: { event: string }) => d.event)).toEqual(['artifact.test']);
    expect((await shared.desk.api('GET', `${BASE}/deliveries?subscriptionId=whk_other`)).body.deliveries).toEqual([]);
    // the subscription shows its last attempt
    expect((await shared.desk.api('GET', `${BASE}/subscriptions`)).body.subscriptions[0].lastAttempt).toMatchObject({ event: 'artifact.test', outcome: 'failed', statusCode: 500 });

    // retry by attempt id or delivery id re-posts the same bytes with the same webhook-id
    receiver.answer = () => ({ status: 200 });
    const retry = await shared.desk.api('POST', `${BASE}/deliveries/${test.body.id}/retry`);
    expect(retry.body).toMatchObject({ deliveryId: test.body.deliveryId, outcome: 'succeeded', attemptNumber: 2, trigger: 'manual', deliveryState: 'succeeded' });
    expect(receiver.received[2].body).toBe(testHook.body);
    expect(receiver.received[2].headers['webhook-id']).toBe(testHook.headers['webhook-id']);
    const again = await shared.desk.api('POST', `${BASE}/deliveries/${test.body.deliveryId}/retry`);
    expect(again.body).toMatchObject({ attemptNumber: 3, outcome: 'succeeded' });
  });

  it('pages the log 20 at a time by default, newest first, with a cursor', async () => {
    const sub = await create();
    for (let i = 0; i < 23; i++) {
      await shared.desk.api('POST', `${BASE}/subscriptions/${sub.id}/test`);
      shared.desk.clock.advance(1000);
    }
    const first = await shared.desk.api('GET', `${BASE}/deliveries`);
    expect(first.body.deliveries).toHaveLength(20);
    const second = await shared.desk.api('GET', `${BASE}/deliveries?cursor=${first.body.nextCursor}`);
    expect(second.body.deliveries).toHaveLength(3);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.deliveries, ...second.body.deliveries].map((d: { createdAt: string }) => d.createdAt);
    expect(all).toEqual([...all].sort().reverse());
  });
});

describe('jobs', () => {
  it('the outbound.deliver job sends what is due, and outbound.prune drops what is past 30 days', async () => {
    const sub = await create();
    await createTask(shared.desk, { title: 'By the job' });
    expect(await shared.desk.services.scheduler.runNow('outbound.deliver')).toBe(true);
    await shared.desk.services.outbound.worker.settle();
    expect(receiver.received).toHaveLength(1);
    expect(verifyWebhook(sub.secret, receiver.received[0], shared.desk.clock.now())).toMatchObject({ event: 'task.created', data: { title: 'By the job' } });
    shared.desk.clock.advance(31 * 24 * 3600_000);
    expect(await shared.desk.services.scheduler.runNow('outbound.prune')).toBe(true);
    expect((await shared.desk.api('GET', `${BASE}/deliveries`)).body.deliveries).toEqual([]);
    expect((await shared.desk.api('GET', `${BASE}/subscriptions`)).body.subscriptions).toHaveLength(1);
  });

  it('GET /events documents the webhook events with examples', async () => {
    const res = await shared.desk.api('GET', '/api/v1/events');
    const byName = new Map(res.body.events.map((e: { name: string; example: unknown }) => [e.name, e.example]));
    for (const name of ['loop.state_changed', 'artifact.ready', 'artifact.test', 'outbound.subscription_disabled']) expect(byName.get(name)).toBeTruthy();
  });
});

describe('restart', () => {
  it('a delivery waiting for its retry when the desk stops is sent by the next desk on the same data folder', async () => {
    const first = await startTestDesk();
    const rx = await startTestReceiver();
    try {
      rx.answer = () => ({ status: 503 });
      const sub = await first.api('POST', `${BASE}/subscriptions`, { url: rx.url, events: ['task.created'] });
      await createTask(first);
      await first.services.outbound.worker.settle();
      expect(rx.received).toHaveLength(1);
      await first.stop({ keepDataDir: true });
      const second = await startTestDesk({ dataDir: first.dataDir, ownsDataDir: true, clock: first.clock });
      try {
        rx.answer = () => ({ status: 200 });
        second.clock.advance(6_000);
        await second.services.outbound.worker.settle();
        expect(rx.received).toHaveLength(2);
        expect(rx.received[1].headers['webhook-id']).toBe(rx.received[0].headers['webhook-id']);
        expect(verifyWebhook(sub.body.secret, rx.received[1], second.clock.now())).toMatchObject({ event: 'task.created' });
        const log = await second.api('GET', `${BASE}/deliveries`);
        expect(log.body.deliveries.map((d: { outcome: string; attemptNumber: number }) => [d.attemptNumber, d.outcome])).toEqual([
          [2, 'succeeded'],
          [1, 'failed'],
        ]);
      } finally {
        await second.stop();
      }
    } finally {
      await rx.close();
    }
  });
});
