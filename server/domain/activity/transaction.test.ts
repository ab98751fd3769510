import { inTransaction } from '../../../db/transactions';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../../db/connection';
import { ManualClock } from '../../core/clock';
import { emit, pendingEvents } from '../events/outbox';
import { recordActivity, SYSTEM_ACTOR } from './activity';

/**
 * The transactional outbox: a change, its activity row and its events commit together or not at
 * all, so an event is never delivered for a change that did not happen (and never lost for one that did).
 */

let dir: string;
let database: OpenedDatabase;
const clock = new ManualClock('2026-03-10T12:00:00.000Z');

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-outbox-'));
  database = await openDatabase(path.join(dir, 'desk.sqlite'), { synchronous: 'OFF' });
});
afterEach(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const counts = async () => ({
  activity: (await database.db.selectFrom('activity').select('id').execute()).length,
  events: (await database.db.selectFrom('outboxEvents').select('id').execute()).length,
});

describe('activity and outbox in one transaction', () => {
  it('commit together: the event is pending, with its envelope', async () => {
    const id = await inTransaction(database.db, async (trx) => {
      await recordActivity(trx, clock, { kind: 'workspace.loop_state', detail: 'changed', actor: SYSTEM_ACTOR });
      return emit(trx, clock, 'workspace.loop_state_changed', { loopState: 'off', pauseUntilAt: null });
    });
    expect(await counts()).toEqual({ activity: 1, events: 1 });
    const [event] = await pendingEvents(database.db);
    expect(event).toMatchObject({ id, event: 'workspace.loop_state_changed', createdAt: '2026-03-10T12:00:00.000Z', deliveredAt: null });
    expect(JSON.parse(event.payload)).toEqual({ id, event: 'workspace.loop_state_changed', createdAt: '2026-03-10T12:00:00.000Z', data: { loopState: 'off', pauseUntilAt: null } });
    expect(id).toMatch(/^evt_/);
  });

  it('roll back together when the change fails after both were written', async () => {
    await expect(
      inTransaction(database.db, async (trx) => {
        await recordActivity(trx, clock, { kind: 'workspace.loop_state', detail: 'changed', actor: SYSTEM_ACTOR });
        await emit(trx, clock, 'workspace.loop_state_changed', { loopState: 'off', pauseUntilAt: null });
        throw new Error('the change itself failed');
      }),
    ).rejects.toThrow('the change itself failed');
    expect(await counts()).toEqual({ activity: 0, events: 0 });
    expect(await pendingEvents(database.db)).toEqual([]);
  });

  it('pendingEvents lists undelivered events oldest first, bounded by its limit', async () => {
    for (let i = 0; i < 3; i++) {
      clock.advanceMinutes(1);
      await inTransaction(database.db, (trx) => emit(trx, clock, 'source.resumed', { sourceId: `src_${i}`, label: `feed ${i}` }));
    }
    const first = await pendingEvents(database.db);
    await database.db.updateTable('outboxEvents').set({ deliveredAt: clock.now().toISOString() }).where('id', '=', first[0].id).execute();
    const pending = await pendingEvents(database.db, 1);
    expect(pending.map((e) => JSON.parse(e.payload).data)).toEqual([{ sourceId: 'src_1', label: 'feed 1' }]);
  });
});
