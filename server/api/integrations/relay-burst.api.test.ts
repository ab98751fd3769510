import { describe, expect, it } from 'vitest';
import type { TestDesk } from '../../testing/desk';
import { relayStatus, until, waitRelayConnected as waitConnected } from '../../testing/fakes/relay-server';
import { useTestRelay } from '../../testing/fakes/use-test-relay';

/**
 * The relay under a burst, apart from integrations.api.test.ts: the one test there that takes
 * seconds (SLOW_TESTS in vitest.config.ts keeps it out of `npm run test:fast`).
 */

const fixture = useTestRelay();
let desk: TestDesk;

describe('relay burst', () => {
  it('delivers in-process: a burst of 5,000 relayed events makes exactly 5,000 signals, none twice, whatever the webhook limits', async () => {
    // the webhook's own limits are tiny here: relayed events must not go through them
    desk = await fixture.startDesk({ webhookRateLimitPerMinute: 1, webhookFailedAuthPerMinute: 1 });
    const channel = fixture.relay.channelUrl();
    await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl: channel });
    await waitConnected(desk, channel);
    const N = 5_000;
    const event = (i: number) => ({ 'content-type': 'application/json', 'x-github-delivery': `gh-${i}`, body: { title: `Burst ${i}` }, query: {}, timestamp: 1_773_144_000_000 + i });
    for (let i = 0; i < N; i += 1) fixture.relay.send(event(i));
    // the relay replays part of the burst (a reconnect with Last-Event-ID, a retry): nothing new
    for (let i = 0; i < 200; i += 1) fixture.relay.send(event(i * 25));
    await until(async () => expect(await relayStatus(desk)).toMatchObject({ deliveredCount: N + 200 }), 120_000);
    const db = desk.services.db;
    const titles = (await db.selectFrom('signals').select('title').execute()).map((r) => r.title);
    expect(titles).toHaveLength(N);
    expect(new Set(titles).size).toBe(N);
    expect((await db.selectFrom('activity').select('id').where('kind', '=', 'signal.received').execute()).length).toBe(N);
    expect(await relayStatus(desk)).toMatchObject({ failedCount: 0, lastError: null, lastDeliveryStatus: 201 });
  }, 180_000);
});
