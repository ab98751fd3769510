import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../db/transactions';
import { SYSTEM_ACTOR } from '../activity/activity';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { getSource } from './source-store';
import { pauseSource, resumeSource } from './source-transitions';

let desk: TestDesk;

beforeEach(async () => {
  desk = await startTestDesk();
});
afterEach(async () => {
  await desk.stop();
});

const snapshot = async () => {
  const { db } = desk.services;
  return [
    await db.selectFrom('sources').selectAll().execute(),
    await db.selectFrom('activity').selectAll().where(sql`kind`, 'like', 'source.%').execute(),
    await db.selectFrom('outboxEvents').selectAll().execute(),
  ];
};

describe('pause/resume transition', () => {
  it('resume clears only the pause: status, failures and the retry schedule stay', async () => {
    const { db, clock } = desk.services;
    const src = await desk.services.sources.create({ type: 'rss', label: 'Flaky', url: 'https://acme.example/feed.xml' });
    const retryAt = new Date(clock.now().getTime() + 3_600_000).toISOString();
    await db.updateTable('sources').set({ status: 'error', consecutiveFailures: 3, nextRetryAt: retryAt, lastErrorMessage: 'HTTP 503' }).where('id', '=', src.id).execute();
    await inTransaction(db, async (trx) => pauseSource(trx, clock, await getSource(trx, src.id), null, SYSTEM_ACTOR));
    expect(await inTransaction(db, async (trx) => resumeSource(trx, clock, await getSource(trx, src.id), SYSTEM_ACTOR, 'test'))).toBe(true);
    expect(await getSource(db, src.id)).toMatchObject({ pausedAt: null, pausedUntilAt: null, status: 'error', consecutiveFailures: 3, nextRetryAt: retryAt, lastErrorMessage: 'HTTP 503' });
    // resuming a running source writes nothing
    const before = await snapshot();
    expect(await inTransaction(db, async (trx) => resumeSource(trx, clock, await getSource(trx, src.id), SYSTEM_ACTOR, 'test'))).toBe(false);
    expect(await snapshot()).toEqual(before);
  });

  it('writes the change, its activity row and its event in the caller transaction: a rollback leaves none', async () => {
    const { db, clock } = desk.services;
    const src = await desk.services.sources.create({ type: 'manual', label: 'Inbox' });
    const before = await snapshot();
    await expect(
      inTransaction(db, async (trx) => {
        await pauseSource(trx, clock, await getSource(trx, src.id), null, SYSTEM_ACTOR);
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await snapshot()).toEqual(before);
  });
});
