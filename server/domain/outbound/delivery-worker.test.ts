import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../testing/database';
import { startTestReceiver, verifyWebhook, type TestReceiver } from '../../testing/fakes/webhook-receiver';
import { attemptRows, deliveryRows, emitTaskCreated } from '../../testing/fixtures/outbound';
import { OutboundService } from './outbound-service';
import { RESPONSE_EXCERPT_BYTES } from './rules';

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });
let receiver: TestReceiver;
let outbound: OutboundService;

beforeEach(async () => {
  receiver = await startTestReceiver();
  outbound = new OutboundService(t.db, t.clock, { random: () => 0 });
});

afterEach(async () => {
  await outbound.stop();
  await receiver.close();
});

const subscribe = (url = receiver.url, events = ['task.created']) => outbound.subscriptions.create({ url, events });
const advance = async (ms: number) => {
  t.clock.advance(ms);
  await outbound.worker.settle();
};

describe('delivery worker', () => {
  it('delivers the outbox envelope byte for byte, signed to the Standard Webhooks spec, to matching subscriptions only', async () => {
    const sub = await subscribe();
    const other = await subscribe(receiver.url.replace('/hooks', '/other'), ['artifact.approved']);
    const eventId = await emitTaskCreated(t.db, t.clock);
    await outbound.worker.settle();

    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    const stored = await t.db.selectFrom('outboxEvents').selectAll().where('id', '=', eventId).executeTakeFirstOrThrow();
    expect(hook.body).toBe(stored.payload);
    expect(stored.deliveredAt).toBe(t.clock.now().toISOString());
    expect(hook.headers['webhook-id']).toBe(eventId);
    expect(hook.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    expect(hook.headers['content-type']).toBe('application/json');
    expect(verifyWebhook(sub.secret, hook, t.clock.now())).toMatchObject({ id: eventId, event: 'task.created', data: { title: 'Reply to the review' } });
    // the wrong secret does not verify
    expect(() => verifyWebhook(other.secret, hook, t.clock.now())).toThrow();

    const [attempt] = await attemptRows(t.db);
    expect(attempt).toMatchObject({ subscriptionId: sub.id, eventId, event: 'task.created', url: receiver.url, attemptNumber: 1, trigger: 'scheduled', outcome: 'succeeded', statusCode: 204, nextRetryAt: null });
    expect((await deliveryRows(t.db)).map((d) => d.state)).toEqual(['succeeded']);
  });

  it('events with no matching subscription are only marked', async () => {
    await emitTaskCreated(t.db, t.clock);
    await outbound.worker.settle();
    expect(await deliveryRows(t.db)).toEqual([]);
    expect((await t.db.selectFrom('outboxEvents').select('deliveredAt').execute()).every((r) => r.deliveredAt !== null)).toBe(true);
  });

  it('walks the retry schedule on the clock (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then gives up', async () => {
    await subscribe();
    receiver.answer = () => ({ status: 500, body: 'boom' });
    await emitTaskCreated(t.db, t.clock);
    await outbound.worker.settle();
    expect(receiver.received).toHaveLength(1);
    const waits = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
    for (const [i, wait] of waits.entries()) {
      await advance(wait - 1);
      expect(receiver.received, `not before retry ${i + 1} is due`).toHaveLength(i + 1);
      await advance(1);
      expect(receiver.received, `retry ${i + 1} sent when due`).toHaveLength(i + 2);
    }
    await advance(100 * 3600_000);
    expect(receiver.received).toHaveLength(8);
    const attempts = await attemptRows(t.db);
    expect(attempts.map((a) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(attempts[0]).toMatchObject({ outcome: 'failed', statusCode: 500, error: 'HTTP 500', responseExcerpt: 'boom' });
    expect(attempts[0].nextRetryAt).toBe(new Date(new Date(attempts[0].createdAt).getTime() + 5_000).toISOString());
    expect(attempts[7].nextRetryAt).toBeNull();
    expect((await deliveryRows(t.db))[0]).toMatchObject({ state: 'given_up', attempts: 8 });
    // every attempt carried the same id and the same bytes
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
  });

  it('honours Retry-After on 429 and 503 (seconds or an HTTP date), not on 500', async () => {
    await subscribe();
    const answers = [
      { status: 503, headers: { 'retry-after': '120' } },
      { status: 429, headers: { 'retry-after': new Date(t.clock.now().getTime() + 120_000 + 3_600_000).toUTCString() } },
      { status: 500, headers: { 'retry-after': '9999' } },
      { status: 200 },
    ];
    receiver.answer = (_r, i) => answers[i];
    await emitTaskCreated(t.db, t.clock);
    await outbound.worker.settle();
    await advance(119_999);
    expect(receiver.received).toHaveLength(1);
    await advance(1);
    expect(receiver.received).toHaveLength(2);
    await advance(3_600_000);
    expect(receiver.received).toHaveLength(3);
    // a 500's Retry-After is not honoured: the schedule's third wait (30 min) applies
    await advance(1_800_000);
    expect(receiver.received).toHaveLength(4);
    expect((await deliveryRows(t.db))[0].state).toBe('succeeded');
  });

  it('receiver down, then up: every event is delivered, duplicates only with the same webhook-id', async () => {
    const sub = await subscribe();
    await receiver.down();
    const ids = [await emitTaskCreated(t.db, t.clock, 'one'), await emitTaskCreated(t.db, t.clock, 'two'), await emitTaskCreated(t.db, t.clock, 'three')];
    await outbound.worker.settle();
    const failed = await attemptRows(t.db);
    expect(failed).toHaveLength(3);
    expect(failed.every((a) => a.outcome === 'failed' && a.statusCode === null && a.error !== null)).toBe(true);
    await receiver.up();
    // an answer the desk does not see in time is a duplicate for the receiver: the same id comes again
    receiver.answer = (_r, i) => (i === 0 ? { status: 500 } : { status: 200 });
    await advance(5_000);
    await advance(300_000);
    const got = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(got)).toEqual(new Set(ids));
    for (const r of receiver.received) expect(verifyWebhook(sub.secret, r, t.clock.now())).toMatchObject({ id: r.headers['webhook-id'] });
    expect((await deliveryRows(t.db)).map((d) => d.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });

  it('does not follow redirects: a 3xx is a failure naming its Location', async () => {
    await subscribe();
    receiver.answer = () => ({ status: 302, headers: { location: 'https://elsewhere.example/hooks' } });
    await emitTaskCreated(t.db, t.clock);
    await outbound.worker.settle();
    expect(receiver.received).toHaveLength(1);
    expect((await attemptRows(t.db))[0]).toMatchObject({ outcome: 'failed', statusCode: 302, error: 'HTTP 302: redirect not followed (Location: https://elsewhere.example/hooks)' });
  });

  it('keeps at most 1 KiB of the answer', async () => {
    await subscribe();
    receiver.answer = () => ({ status: 400, body: 'é'.repeat(5_000) });
    await emitTaskCreated(t.db, t.clock);
    await outbound.worker.settle();
    const excerpt = (await attemptRows(t.db))[0].responseExcerpt ?? '';
    expect(Buffer.byteLength(excerpt)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
    expect(excerpt).toBe('é'.repeat(RESPONSE_EXCERPT_BYTES / 2));
  });

  it("a slow receiver holds one slot: another subscription's deliveries go out meanwhile", async () => {
    const slow = await startTestReceiver();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    slow.answer = async () => {
      await held;
      return { status: 200 };
    };
    try {
      await subscribe(slow.url);
      await subscribe();
      for (const title of ['a', 'b', 'c']) await emitTaskCreated(t.db, t.clock, title);
      const settled = outbound.worker.settle();
      await expect.poll(() => receiver.received.length).toBe(3);
      // the slow receiver got only its first delivery: one POST per subscription at a time
      expect(slow.received).toHaveLength(1);
      release();
      await settled;
      expect(slow.received).toHaveLength(3);
    } finally {
      release();
      await slow.close();
    }
  });
});
