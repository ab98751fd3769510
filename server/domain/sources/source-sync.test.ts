import type { ActivityKind } from '../catalog/activity-kinds';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../core/clock';
import { fixture, startFeedServer, type FeedServer } from '../../testing/fakes/feed-server';
import { startTestDesk, type TestDesk } from '../../testing/desk';

/** SourceSync's events: `source.errored` on the failure that breaks a feed, `source.recovered` on its first success after,
 * `source.connected` on a new feed's first success. */

let feeds: FeedServer;
let desk: TestDesk;

beforeAll(async () => {
  feeds = await startFeedServer();
});
afterAll(async () => {
  await feeds.close();
});
beforeEach(async () => {
  desk = await startTestDesk();
});
afterEach(async () => {
  await desk.stop();
});

const events = async (name: string) =>
  (await desk.services.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute()).map((e) => JSON.parse(e.payload).data);
const activityIds = async (kind: ActivityKind) => (await desk.services.db.selectFrom('activity').select('id').where('kind', '=', kind).orderBy('id').execute()).map((a) => a.id);

describe('SourceSync events', () => {
  it('emits source.errored once when polls start failing and source.recovered on the first success after', async () => {
    feeds.set('/flaky', { status: 503 });
    const { sources, sourceSync } = desk.services;
    const src = await sources.create({ type: 'rss', label: 'Flaky', url: feeds.url('/flaky') });

    await sourceSync.pollNow(src.id);
    const errored = await events('source.errored');
    const row = await sources.get(src.id);
    expect(errored).toEqual([{ sourceId: src.id, label: 'Flaky', message: row.lastErrorMessage, consecutiveFailures: 1, nextRetryAt: expect.any(String) }]);
    expect(row).toMatchObject({ status: 'error', consecutiveFailures: 1 });
    // the event and the poll_failed activity row are written together
    expect(await activityIds('source.poll_failed')).toHaveLength(1);

    // further failures retry, log, but do not announce the break again
    desk.clock.advance(DAY_MS);
    await sourceSync.pollNow(src.id);
    expect(await activityIds('source.poll_failed')).toHaveLength(2);
    expect(await events('source.errored')).toHaveLength(1);
    expect(await events('source.recovered')).toEqual([]);

    feeds.set('/flaky', { body: fixture('rss.xml') });
    desk.clock.advance(DAY_MS);
    await sourceSync.pollNow(src.id);
    expect(await events('source.recovered')).toEqual([{ sourceId: src.id, label: 'Flaky' }]);
    expect(await activityIds('source.recovered')).toHaveLength(1);
    // later successes are not recoveries
    desk.clock.advance(DAY_MS);
    await sourceSync.pollNow(src.id);
    expect(await events('source.recovered')).toHaveLength(1);
    expect(await events('source.connected')).toEqual([]);
  });

  it('a first successful poll of a new feed is a connection, not a recovery', async () => {
    feeds.set('/fine', { body: fixture('rss.xml') });
    const src = await desk.services.sources.create({ type: 'rss', label: 'Fine', url: feeds.url('/fine') });
    await desk.services.sourceSync.pollNow(src.id);
    expect((await desk.services.sources.get(src.id)).status).toBe('connected');
    expect(await events('source.recovered')).toEqual([]);
    expect(await events('source.errored')).toEqual([]);
    // The UI's source row leaves "pending" on this event: the feed's items may all have been seen before.
    expect(await events('source.connected')).toEqual([{ sourceId: src.id, label: 'Fine' }]);
    desk.clock.advance(DAY_MS);
    await desk.services.sourceSync.pollNow(src.id);
    expect(await events('source.connected')).toHaveLength(1);
  });
});
