import { CompiledQuery } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../testing/database';
import { HOUR_MS, MINUTE_MS, ManualClock } from '../../core/clock';
import { DeskError } from '../../core/errors';
import { encodeCursor } from '../../core/lists';
import { focusHistoryQuery, type FocusShift } from './focus';
import { WorkspaceService } from './workspace-service';

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });
let clock: ManualClock;
let service: WorkspaceService;

beforeEach(() => {
  clock = t.clock;
  service = new WorkspaceService(t.db, clock);
});

/** Every page of the history, following nextCursor; returns the pages as served. */
async function allPages(limit: number, sinceDays?: number): Promise<FocusShift[][]> {
  const pages: FocusShift[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await service.focusHistory({ limit, cursor, sinceDays });
    pages.push(page.shifts);
    if (page.nextCursor === null) return pages;
    cursor = page.nextCursor;
  }
}

const fieldOf = async (fn: () => Promise<unknown>) => {
  const err = await fn().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeskError);
  return (err as DeskError).details?.[0]?.field;
};

describe('focus history pages', () => {
  it('pages through more shifts than one page; each shift ends where its newer neighbour starts, across pages', async () => {
    // 7 shifts held 1h, 2h, ... 6h; the last one is current and has held 30 minutes
    for (let i = 1; i <= 7; i += 1) {
      await service.setFocusTags([`tag-${i}`]);
      clock.advance(i < 7 ? i * HOUR_MS : 30 * MINUTE_MS);
    }
    const pages = await allPages(3);
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    const shifts = pages.flat();
    expect(shifts.map((s) => s.tags[0])).toEqual(['tag-7', 'tag-6', 'tag-5', 'tag-4', 'tag-3', 'tag-2', 'tag-1']);
    expect(shifts.map((s) => s.durationMinutes)).toEqual([30, 360, 300, 240, 180, 120, 60]);
    expect(shifts.map((s) => s.current)).toEqual([true, false, false, false, false, false, false]);
    // the first row of pages 2 and 3 ends where the last row of the page before starts
    expect(pages[1][0].endedAt).toBe(pages[0][2].startedAt);
    expect(pages[2][0].endedAt).toBe(pages[1][2].startedAt);
    shifts.slice(1).forEach((s, i) => expect(s.endedAt).toBe(shifts[i].startedAt));
    // one page of everything serves the same rows
    expect((await service.focusHistory({ limit: 200 })).shifts).toEqual(shifts);
  });

  it('a page cut by the window keeps the end of its first shift', async () => {
    await service.setFocusTags(['old']);
    clock.advance(3 * 24 * HOUR_MS);
    await service.setFocusTags(['new']);
    clock.advance(HOUR_MS);
    // only today's shift is in a 1-day window; the older one is on no page at all
    expect((await allPages(1, 1)).flat().map((s) => s.tags)).toEqual([['new']]);
    // 4 days: two pages of one, the second still ends where the first starts
    const pages = await allPages(1, 4);
    expect(pages.map((p) => p.map((s) => [s.tags[0], s.durationMinutes]))).toEqual([[['new', 60]], [['old', 3 * 24 * 60]]]);
  });

  it('shifts started in the same millisecond are neither lost nor repeated between pages', async () => {
    for (const tag of ['a', 'b', 'c', 'd', 'e']) await service.setFocusTags([tag]);
    const pages = await allPages(2);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((s) => s.tags[0])).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(pages.flat().filter((s) => s.current)).toHaveLength(1);
  });

  it('the window is whole workspace days, today included, in the workspace timezone', async () => {
    await service.setTimezone('America/New_York');
    // 2026-03-10T03:59Z is still March 9 in New York (UTC-4 since March 8); 04:00Z is March 10
    clock.set(new Date('2026-03-10T03:59:00.000Z'));
    await service.setFocusTags(['yesterday']);
    clock.set(new Date('2026-03-10T04:00:00.000Z'));
    await service.setFocusTags(['today']);
    clock.set(new Date('2026-03-11T03:59:00.000Z')); // 23:59 on March 10 in New York
    expect((await service.focusHistory({ sinceDays: 1 })).shifts.map((s) => s.tags[0])).toEqual(['today']);
    expect((await service.focusHistory({ sinceDays: 2 })).shifts.map((s) => s.tags[0])).toEqual(['today', 'yesterday']);
  });

  it('rejects a cursor it did not serve, and limits and windows out of bounds, naming the field', async () => {
    expect(await fieldOf(() => service.focusHistory({ cursor: 'nonsense' }))).toBe('cursor');
    expect(await fieldOf(() => service.focusHistory({ cursor: encodeCursor(['2026-03-10T12:00:00.000Z']) }))).toBe('cursor');
    expect(await fieldOf(() => service.focusHistory({ limit: 0 }))).toBe('limit');
    expect(await fieldOf(() => service.focusHistory({ limit: 201 }))).toBe('limit');
    expect(await fieldOf(() => service.focusHistory({ sinceDays: 366 }))).toBe('sinceDays');
    expect(await fieldOf(() => service.focusHistory({ sinceDays: 0.5 }))).toBe('sinceDays');
  });

  it('serves a page from the (started_at, id) index without a sort step', async () => {
    const db = t.db;
    for (const after of [undefined, ['2026-03-10T12:00:00.000Z', 'fcs_x'] as const]) {
      const compiled = focusHistoryQuery(db, '2026-01-01T00:00:00.000Z', after, 30).compile();
      const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
      const plan = rows.map((r) => r.detail).join('\n');
      expect(plan).toMatch(/focus_shifts USING INDEX focus_shifts_started_id/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});
