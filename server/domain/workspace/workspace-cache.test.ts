import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inTransaction } from '../../../db/transactions';
import { useTestDatabase } from '../../testing/database';
import { WorkspaceService } from './workspace-service';

/** The workspace row is kept between reads: these fail if a kept row could go stale. */
const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });
const service = () => new WorkspaceService(t.db, t.clock);

describe('kept workspace row', () => {
  it('a change through the service is seen by the next read, by this and by any other service instance', async () => {
    const a = service();
    const b = service();
    expect((await a.profile()).loopIntervalMinutes).toBe(30);
    expect((await b.profile()).loopIntervalMinutes).toBe(30);
    await a.setLoopInterval(45);
    expect((await a.profile()).loopIntervalMinutes).toBe(45);
    expect((await b.profile()).loopIntervalMinutes).toBe(45);
    await b.setTimezone('Europe/Berlin');
    expect((await a.profile()).timezone).toBe('Europe/Berlin');
    expect(await a.focusTags()).toEqual([]);
    await b.setFocusTags(['q3-launch']);
    expect(await a.focusTags()).toEqual(['q3-launch']);
  });

  it('a write through another code path (query builder or raw SQL, not changeWorkspace) is seen at once', async () => {
    const s = service();
    expect((await s.profile()).digestEmail).toBeNull();
    await t.db.updateTable('workspace').set({ digestEmail: 'ops@example.com' }).execute();
    expect((await s.profile()).digestEmail).toBe('ops@example.com');
    await sql`UPDATE workspace SET name = 'Renamed'`.execute(t.db);
    expect((await s.profile()).name).toBe('Renamed');
    await s.setRelayUrl('https://relay.example.com/c/1');
    expect(await s.relayUrl()).toBe('https://relay.example.com/c/1');
    await t.db.updateTable('workspace').set({ relayUrl: null }).execute();
    expect(await s.relayUrl()).toBeNull();
  });

  it('inside a transaction reads see its uncommitted change; after a rollback the committed row is served', async () => {
    const s = service();
    expect((await s.profile()).plan).toBe('free');
    await expect(
      inTransaction(t.db, async () => {
        await s.setPlan('team');
        expect((await s.profile()).plan).toBe('team');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await s.profile()).plan).toBe('free');
    await s.setPlan('pro');
    expect((await s.profile()).plan).toBe('pro');
  });

  it('a read while a change is open gets the committed row at once, never the uncommitted one; once committed, the change', async () => {
    const s = service();
    await s.profile();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    const change = inTransaction(t.db, async () => {
      await s.setPlan('team');
      wrote();
      await held;
    });
    await written;
    // The kept row is still the committed one (dropped after the COMMIT): served without waiting for the change.
    expect((await s.profile()).plan).toBe('free');
    release();
    await change;
    expect((await s.profile()).plan).toBe('team');
  });

  it('returns copies: a caller changing what it got does not change what others read', async () => {
    const s = service();
    const p = await s.profile();
    p.approvalPolicy.watchHours = 1;
    (p as { plan: string }).plan = 'team';
    const row = await import('./workspace-store').then((m) => m.readWorkspace(t.db));
    row.name = 'changed by a caller';
    expect((await s.profile()).plan).toBe('free');
    expect((await s.profile()).approvalPolicy.watchHours).toBe(24);
    expect((await s.profile()).name).toBe('My desk');
  });
});
