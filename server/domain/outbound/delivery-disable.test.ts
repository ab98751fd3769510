import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTestDatabase } from '../../testing/database';
import { startTestReceiver, type TestReceiver } from '../../testing/fakes/webhook-receiver';
import { attemptRows, deliveryRows, emitTaskCreated } from '../../testing/fixtures/outbound';
import { OutboundService } from './outbound-service';

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });
let receiver: TestReceiver;
let outbound: OutboundService;
const DAY = 24 * 3600_000;

beforeEach(async () => {
  receiver = await startTestReceiver();
  outbound = new OutboundService(t.db, t.clock, { random: () => 0 });
});

afterEach(async () => {
  await outbound.stop();
  await receiver.close();
});

const subscribe = (events = ['task.created']) => outbound.subscriptions.create({ url: receiver.url, events });
const activity = (kind: 'outbound.subscription_disabled') => t.db.selectFrom('activity').select(['detail', 'entityId', 'actorLabel']).where('kind', '=', kind).execute();
const queued = (event: string) => t.db.selectFrom('outboxEvents').select('payload').where('event', '=', event).execute();

describe('disabling a subscription', () => {
  it('410 Gone disables it at once: its pending deliveries are given up, the operator is told, nothing more is sent', async () => {
    const sub = await subscribe();
    receiver.answer = (_r, i) => (i === 0 ? { status: 500 } : { status: 410 });
    await emitTaskCreated(t.db, t.clock, 'first');
    await outbound.worker.settle();
    await emitTaskCreated(t.db, t.clock, 'second');
    await outbound.worker.settle();
    expect(receiver.received).toHaveLength(2);
    expect(await outbound.subscriptions.get(sub.id)).toMatchObject({ active: false, status: 'disabled', disabledReason: 'gone', disabledAt: t.clock.now().toISOString() });
    expect((await deliveryRows(t.db)).map((d) => d.state)).toEqual(['given_up', 'given_up']);
    expect(await activity('outbound.subscription_disabled')).toEqual([{ detail: expect.stringContaining('410 Gone'), entityId: sub.id, actorLabel: 'system' }]);
    const [event] = await queued('outbound.subscription_disabled');
    expect(JSON.parse(event.payload).data).toMatchObject({ subscriptionId: sub.id, reason: 'gone', active: false, origin: new URL(receiver.url).origin });

    t.clock.advance(DAY);
    await emitTaskCreated(t.db, t.clock, 'third');
    await outbound.worker.settle();
    expect(receiver.received).toHaveLength(2);
    // resuming clears the reason; new events flow again
    receiver.answer = () => ({ status: 200 });
    expect(await outbound.subscriptions.patch(sub.id, { active: true })).toMatchObject({ status: 'active', disabledReason: null, failingSince: null });
    await emitTaskCreated(t.db, t.clock, 'fourth');
    await outbound.worker.settle();
    expect(receiver.received).toHaveLength(3);
  });

  it('5 days of failed scheduled attempts disable it and write the activity row; a success in between resets the streak', async () => {
    const sub = await subscribe();
    receiver.answer = () => ({ status: 500 });
    await emitTaskCreated(t.db, t.clock, 'day0');
    await outbound.worker.settle();
    const since = t.clock.now().toISOString();
    expect((await outbound.subscriptions.get(sub.id)).failingSince).toBe(since);
    for (let day = 1; day <= 4; day++) {
      t.clock.advance(DAY);
      await emitTaskCreated(t.db, t.clock, `day${day}`);
      await outbound.worker.settle();
    }
    expect((await outbound.subscriptions.get(sub.id)).status).toBe('active');
    t.clock.advance(DAY - 1);
    await emitTaskCreated(t.db, t.clock, 'almost');
    await outbound.worker.settle();
    expect((await outbound.subscriptions.get(sub.id)).status).toBe('active');
    t.clock.advance(1);
    await emitTaskCreated(t.db, t.clock, 'day5');
    await outbound.worker.settle();
    expect(await outbound.subscriptions.get(sub.id)).toMatchObject({ status: 'disabled', disabledReason: 'failing', failingSince: since });
    expect(await activity('outbound.subscription_disabled')).toEqual([{ detail: expect.stringContaining(`every delivery failed since ${since}`), entityId: sub.id, actorLabel: 'system' }]);
    expect((await deliveryRows(t.db)).filter((d) => d.state === 'pending')).toEqual([]);
  });

  it('a success clears the failing streak', async () => {
    const sub = await subscribe();
    receiver.answer = (_r, i) => (i === 0 ? { status: 500 } : { status: 200 });
    await emitTaskCreated(t.db, t.clock);
    await outbound.worker.settle();
    expect((await outbound.subscriptions.get(sub.id)).failingSince).not.toBeNull();
    t.clock.advance(5_000);
    await outbound.worker.settle();
    expect((await outbound.subscriptions.get(sub.id)).failingSince).toBeNull();
  });

  it('manual attempts never count toward disabling: not a failing streak, not a 410', async () => {
    const sub = await subscribe();
    receiver.answer = () => ({ status: 200 });
    await emitTaskCreated(t.db, t.clock);
    await outbound.worker.settle();
    const [delivery] = await deliveryRows(t.db);
    receiver.answer = () => ({ status: 500 });
    for (let day = 0; day <= 6; day++) {
      expect(await outbound.log.retry(delivery.id)).toMatchObject({ trigger: 'manual', outcome: 'failed', statusCode: 500, nextRetryAt: null, deliveryState: 'succeeded' });
      t.clock.advance(DAY);
    }
    receiver.answer = () => ({ status: 410 });
    expect(await outbound.log.test(sub.id)).toMatchObject({ event: 'artifact.test', trigger: 'manual', outcome: 'failed', statusCode: 410, deliveryState: 'failed' });
    expect(await outbound.subscriptions.get(sub.id)).toMatchObject({ status: 'active', failingSince: null });
    expect(await activity('outbound.subscription_disabled')).toEqual([]);
    expect((await attemptRows(t.db)).map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 1]);
  });
});

describe('surviving a restart and waking up', () => {
  it('a delivery waiting for its retry is sent by the worker of the reopened database when due', async () => {
    await subscribe();
    receiver.answer = () => ({ status: 503 });
    const eventId = await emitTaskCreated(t.db, t.clock);
    await outbound.worker.settle();
    await outbound.stop();
    await t.reopen();
    receiver.answer = () => ({ status: 200 });
    outbound = new OutboundService(t.db, t.clock, { random: () => 0 });
    await outbound.worker.settle();
    expect(receiver.received).toHaveLength(1);
    t.clock.advance(5_000);
    await outbound.worker.settle();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
    expect((await deliveryRows(t.db))[0]).toMatchObject({ state: 'succeeded', attempts: 1 });
  });

  it('with deliverOnWrite, a committed event is delivered without any call, and due ones go out at start', async () => {
    await outbound.stop();
    await subscribe();
    receiver.answer = () => ({ status: 200 });
    const before = await emitTaskCreated(t.db, t.clock, 'before start');
    outbound = new OutboundService(t.db, t.clock, { random: () => 0, deliverOnWrite: true });
    await vi.waitFor(() => expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([before]));
    const after = await emitTaskCreated(t.db, t.clock, 'after start');
    await vi.waitFor(() => expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([before, after]));
  });

  it('a rolled-back change sends nothing', async () => {
    await subscribe();
    const { inTransaction } = await import('../../../db/transactions');
    const { emit } = await import('../events/outbox');
    await expect(
      inTransaction(t.db, async (trx) => {
        await emit(trx, t.clock, 'task.created', { taskId: 'tsk_x', title: 'x', status: 'queued', duplicateOfTaskId: null });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await outbound.worker.settle();
    expect(receiver.received).toEqual([]);
  });
});

describe('retention', () => {
  it('prunes attempts, finished deliveries and delivered outbox rows older than 30 days; pending ones stay', async () => {
    await subscribe();
    await emitTaskCreated(t.db, t.clock, 'old ok');
    await outbound.worker.settle();
    receiver.answer = () => ({ status: 500 });
    t.clock.advance(DAY);
    await emitTaskCreated(t.db, t.clock, 'old failing');
    await outbound.worker.settle();
    t.clock.advance(29 * DAY + 1);
    // the first day's success (and its outbox rows: the subscription's creation and the task) are past 30 days
    expect(await outbound.log.prune()).toEqual({ attempts: 1, deliveries: 1, outbox: 2 });
    t.clock.advance(2 * DAY);
    const pruned = await outbound.log.prune();
    expect(pruned.attempts).toBeGreaterThan(0);
    // no worker ran meanwhile: the failing delivery is still pending (its retry due), so it stays
    expect((await deliveryRows(t.db)).map((d) => d.state)).toEqual(['pending']);
    expect(await t.db.selectFrom('outboundSubscriptions').select('id').execute()).toHaveLength(1);
  });
});
