import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { LOOP_CYCLE_JOB } from '../../jobs/loop-jobs';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { aSignal, createSignal } from '../../testing/fixtures/signals';

const desks: TestDesk[] = [];
afterEach(async () => {
  for (const d of desks.splice(0)) await d.stop();
});

/**
 * A real SQLITE_FULL without a small disk: `PRAGMA max_page_count` caps the database at the pages it
 * has, so SQLite refuses the next write that needs a new page exactly as on a full disk. The disk's
 * free space, which decides when the desk resumes, is the test's (the real one is in
 * disk-full.tmpfs.test.ts).
 */
describe('a full disk', () => {
  it('answers 507 disk_full in the one error shape, loses nothing acknowledged, holds the loop and resumes when there is room', async () => {
    let free = 10 * 1024 ** 3;
    const desk = await startTestDesk({ minFreeDiskBytes: 64 * 1024 * 1024, diskFreeBytes: () => free });
    desks.push(desk);
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) acknowledged.push((await createSignal(desk, { title: `kept ${i}` })).id);

    const { db } = desk.services;
    const pages = Number((await sql<{ pageCount: number }>`PRAGMA page_count`.execute(db)).rows[0].pageCount);
    await sql.raw(`PRAGMA max_page_count = ${pages}`).execute(db);
    free = 1024 * 1024;

    let refused: { status: number; body: Record<string, unknown> } | null = null;
    for (let i = 0; i < 200 && refused === null; i++) {
      const res = await desk.api('POST', '/api/v1/signals', aSignal({ title: `filler ${i}`, detail: 'x'.repeat(4000) }));
      if (res.status === 201) acknowledged.push(res.body.id as string);
      else refused = res;
    }
    expect(refused?.status).toBe(507);
    expect(refused?.body).toEqual({ error: 'disk_full', message: expect.stringMatching(/is full: nothing was saved by this request.*needs at least 64 MB free \(1 MB free now\)/) });

    // Reads still work and every acknowledged signal is there.
    const listed = await desk.api('GET', '/api/v1/signals?limit=200');
    expect(listed.status).toBe(200);
    expect((listed.body.signals as { id: string }[]).map((s) => s.id).sort()).toEqual([...acknowledged].sort());
    expect((await desk.api('GET', '/api/v1/storage')).body).toMatchObject({ diskFull: true, freeBytes: 1024 * 1024, neededBytes: 64 * 1024 * 1024, fullSince: '2026-03-10T12:00:00.000Z' });

    // The loop pauses itself: no job starts while the disk is short of space.
    expect(await desk.services.scheduler.tick()).toEqual([]);

    // Space returns: the next look resumes everything.
    await sql.raw('PRAGMA max_page_count = 1073741823').execute(db);
    free = 10 * 1024 ** 3;
    expect((await desk.api('GET', '/api/v1/storage')).body).toMatchObject({ diskFull: false, fullSince: null });
    expect(await desk.services.scheduler.tick()).toContain(LOOP_CYCLE_JOB);
    const after = await desk.api('POST', '/api/v1/signals', aSignal({ title: 'after the disk had room again' }));
    expect(after.status).toBe(201);
  });

  it('an I/O error on a disk with room is not a full disk (a 500 as before, no hold)', async () => {
    let free = 10 * 1024 ** 3;
    const desk = await startTestDesk({ diskFreeBytes: () => free });
    desks.push(desk);
    const ioError = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' });
    expect(desk.services.diskSpace.noteFailure(ioError)).toBe(false);
    free = 0;
    expect(desk.services.diskSpace.noteFailure(ioError)).toBe(true);
    expect(desk.services.diskSpace.noteFailure(Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toBe(true);
  });
});
