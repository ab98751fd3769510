import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../core/clock';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { signalListQuery } from './signal-service';

let desk: TestDesk;

beforeEach(async () => {
  desk = await startTestDesk();
});

afterEach(async () => {
  await desk.stop();
});

async function planOf(query: { limit: number; since?: string; sourceId?: string }): Promise<string> {
  const compiled = signalListQuery(desk.services.db, query).compile();
  const { rows } = await desk.services.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
  return rows.map((r) => r.detail).join('\n');
}

describe('SignalService', () => {
  it('serves the list from signals_created, and from signals_source_created when filtered by source', async () => {
    expect(await planOf({ limit: 50 })).toMatch(/signals USING INDEX signals_created/);
    expect(await planOf({ limit: 50, since: '2026-01-01T00:00:00.000Z' })).toMatch(/signals USING INDEX signals_created/);
    expect(await planOf({ limit: 50, sourceId: 'src_x', since: '2026-01-01T00:00:00.000Z' })).toMatch(/signals USING INDEX signals_source_created/);
    expect(await planOf({ limit: 50, sourceId: 'src_x' })).toMatch(/signals USING INDEX signals_source_created/);
    // newest first straight off the index: no sort step
    for (const q of [{ limit: 50 }, { limit: 50, sourceId: 'src_x' }]) expect(await planOf(q)).not.toMatch(/TEMP B-TREE/);
  });

  it('keeps idempotency keys 7 days: a repeat within them replays, after them it is a new delivery', async () => {
    const s = desk.services.signals;
    const first = await s.receive({ title: 'one' }, 'key-1');
    expect(first.replayed).toBe(false);
    desk.clock.advance(7 * DAY_MS - 1);
    const again = await s.receive({ title: 'one' }, 'key-1');
    expect(again).toEqual({ replayed: true, result: first.result });
    desk.clock.advance(2);
    const later = await s.receive({ title: 'one' }, 'key-1');
    expect(later.replayed).toBe(false);
    expect(later.result.signalIds[0]).not.toBe(first.result.signalIds[0]);
    // the expired row was pruned on the way; only the new one is kept
    const keys = await desk.services.db.selectFrom('idempotencyKeys').selectAll().execute();
    expect(keys).toHaveLength(1);
    expect(keys[0].createdAt).toBe(desk.clock.now().toISOString());
  });

  it('a signal whose externalId is on the desk is not created again, even inside one batch', async () => {
    const s = desk.services.signals;
    const a = await s.receive({ signals: [{ title: 'a', externalId: 'ext-1' }, { title: 'a again', externalId: 'ext-1' }, { title: 'b' }] });
    expect(a.result.accepted).toBe(2);
    expect(a.result.duplicates).toBe(1);
    expect(a.result.signalIds[1]).toBe(a.result.signalIds[0]);
    const b = await s.receive({ title: 'a', externalId: 'ext-1' });
    expect(b.result).toEqual({ accepted: 0, duplicates: 1, signalIds: [a.result.signalIds[0]] });
    const signals = await s.list({ limit: 10 });
    expect(signals.map((x) => x.title).sort()).toEqual(['a', 'b']);
    expect(signals.find((x) => x.title === 'a')?.externalId).toBe('ext-1');
  });
});
