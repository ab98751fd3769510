/**
 * Pins what a large local-engine cycle writes, so a speed-up of gather, the engine or apply cannot
 * silently change it: two cycles (1,000 new signals, then 60 more) over a seeded workspace with open
 * tasks (tags, focus tags, assignees, notes with standing direction, blockers, approved / archived /
 * ready outputs, attached signals), memory and sources. Every table's rows after the cycles are
 * compared as a digest, ids generated during the test replaced by their rank in generation order
 * (ulids of one clock instant sort in the order they were made) and the two wall-time columns of
 * the run record left out. Readable counts are asserted first, so a change shows where it is.
 */
import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/connection';
import type { ManualClock } from '../../core/clock';
import { LocalEngine } from '../../engine/local/index';
import { dbFingerprint } from '../../testing/db-fingerprint';
import { useTestDatabase } from '../../testing/database';
import { newTaskDefaults } from '../tasks/task-store';
import { LoopService } from './loop-service';

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'America/New_York' } });
let db: Db;
let clock: ManualClock;
beforeEach(() => {
  db = t.db;
  clock = t.clock;
});

const VOCAB =
  'pricing checkout refund invoice latency outage dashboard export import mobile android billing seats trial churn review rating support ticket escalation launch roadmap feature request crash login password security audit compliance partner integration slack webhook quota migration backup release newsletter campaign competitor funding hiring analytics retention conversion signup docs webinar survey accessibility search notification calendar template automation'.split(
    ' ',
  );

// Words no open task speaks of: signals made of them found new tasks (and group into them).
const FRESH =
  'warehouse forklift pallet shipment customs freight courier tracking parcel depot inventory stocktake supplier carrier container harbour rail tariff manifest dispatch'.split(' ');

/** Deterministic words: a linear congruential walk from the seed. */
function wordsOf(seed: number, n: number, vocab = VOCAB): string[] {
  let x = (seed * 2654435761 + 12345) % 4294967296;
  return Array.from({ length: n }, () => {
    x = (x * 1664525 + 1013904223) % 4294967296;
    return vocab[Math.floor(x / 65536) % vocab.length];
  });
}

/** A word of its own per number (letters only): signals titled with such words found a task each. */
const uniqueWord = (n: number) => `zq${[...String(n)].map((d) => 'abcdefghij'[Number(d)]).join('')}`;
const pad = (n: number) => String(n).padStart(4, '0');
const at = (minutesAgo: number) => new Date(clock.now().getTime() - minutesAgo * 60_000).toISOString();
const KINDS = ['news', 'mention', 'review', 'message', 'alert', 'metric', 'note', 'other'] as const;
const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
const STATUSES = ['queued', 'in_progress', 'needs_input'] as const;

async function seedWorkspace(): Promise<void> {
  await db.updateTable('workspace').set({ focusTags: JSON.stringify(['checkout', 'mobile-release']) }).execute();
  await db.insertInto('users').values({ id: 'usr_pin_member', name: 'Robin', email: null, role: 'editor', createdAt: at(100_000) }).execute();
  for (let s = 0; s < 3; s++) {
    await db
      .insertInto('sources')
      .values({ id: `src_pin_${s}`, type: 'rss', label: `Feed ${s}`, url: `https://example.com/feed-${s}`, notes: null, status: 'connected', pausedAt: null, pausedUntilAt: null, pollIntervalMinutes: null, includeKeywords: '[]', excludeKeywords: '[]', lastSyncedAt: null, lastPolledAt: null, lastErrorMessage: null, lastSignalAt: null, consecutiveFailures: 0, nextRetryAt: null, etag: null, lastModified: null, quietnessAckedAt: null, quietnessWarnedAt: null, createdAt: at(100_000), updatedAt: at(100_000) })
      .execute();
  }
  for (let m = 0; m < 200; m++) {
    const w = wordsOf(50_000 + m, 14);
    await db.insertInto('memory').values({ id: `mem_pin_${pad(m)}`, kind: (['fact', 'decision', 'preference', 'lesson'] as const)[m % 4], title: `${w[0]} ${w[1]} note`, content: `We learned that ${w.slice(2).join(' ')} matters.`, importance: m % 5 === 0 ? 0.8 : null, createdAt: at(90_000 - m), updatedAt: at(90_000 - m) }).execute();
    if (m % 3 === 0) await db.insertInto('memoryTags').values({ memoryId: `mem_pin_${pad(m)}`, tag: w[0] }).execute();
  }
  // Signals the open tasks took in earlier cycles (triaged), some after the task's latest output.
  for (let i = 0; i < 240; i++) {
    const w = wordsOf(20_000 + i, 6);
    await db.insertInto('signals').values({ id: `sig_pin_old_${pad(i)}`, kind: KINDS[i % 8], priority: PRIORITIES[i % 4], title: `${w[0]} ${w[1]} ${w[2]}`, detail: `Reported: ${w.join(' ')}.`, sourceUrl: null, sourceId: i % 4 === 3 ? null : `src_pin_${i % 3}`, pinned: 0, createdAt: at(50_000 - i), triagedAt: at(i % 2 === 0 ? 40_000 : 100) }).execute();
  }
  for (let k = 0; k < 90; k++) {
    const id = `tsk_pin_${pad(k)}`;
    const w = wordsOf(10_000 + k, 8);
    const status = k % 10 === 9 ? 'done' : STATUSES[k % 3];
    await db
      .insertInto('tasks')
      .values({
        ...newTaskDefaults(at(60_000 - k)),
        id,
        title: k % 7 === 0 ? `Check ${w[0]}` : `Assess: ${w[0]} ${w[1]} ${w[2]}`,
        summary: k % 7 === 0 ? '' : `${w.join(' ')} for customers.`,
        kind: 'research',
        deliverableType: 'brief',
        priority: k % 5 === 0 ? null : PRIORITIES[k % 4],
        dueAt: null,
        assignedToUserId: k % 4 === 0 ? 'usr_pin_member' : null,
        goal: k % 6 === 0 ? `Decide on ${w[3]} ${w[4]}` : '',
        context: '',
        status,
        sourceSignalIds: JSON.stringify(k < 80 ? [`sig_pin_old_${pad(3 * k)}`, `sig_pin_old_${pad(3 * k + 1)}`, `sig_pin_old_${pad(3 * k + 2)}`] : []),
        sourceMemoryIds: JSON.stringify(k % 8 === 0 ? [`mem_pin_${pad(k)}`] : []),
      })
      .execute();
    if (k % 3 !== 1) await db.insertInto('taskTags').values([...new Set(k % 2 === 0 ? [w[0], 'checkout'] : [w[1]])].map((tag) => ({ taskId: id, tag }))).execute();
    if (k % 5 === 1) {
      const status2 = (['approved', 'archived', 'ready'] as const)[k % 3];
      await db.insertInto('artifacts').values({ id: `art_pin_${pad(k)}`, taskId: id, runId: null, parentArtifactId: null, version: 1 + (k % 2), kind: 'brief', title: `Brief on ${w[0]}`, content: 'Earlier draft.', status: status2, sourceSignalIds: '[]', sourceMemoryIds: '[]', readyAt: at(20_000), decidedAt: status2 === 'ready' ? null : at(10_000), createdAt: at(20_000), updatedAt: at(20_000) }).execute();
    }
    if (k % 6 === 2) await db.insertInto('taskNotes').values({ id: `tno_pin_${pad(k)}`, taskId: id, text: k % 12 === 2 ? `Always mention ${w[5]} first.` : `Cover ${w[6]} too.`, authorUserId: null, createdAt: at(500 - k) }).execute();
    if (k % 11 === 3) await db.insertInto('taskBlockers').values({ taskId: id, blockerTaskId: `tsk_pin_${pad(k - 1)}` }).execute();
  }
}

async function newSignals(from: number, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, j) => {
    const i = from + j;
    const w = i % 3 === 0 ? wordsOf(i, 6, FRESH) : wordsOf(i, 10);
    if (i % 4 === 1) return { id: `sig_pin_new_${pad(i)}`, kind: KINDS[i % 8], priority: PRIORITIES[i % 4], title: `${uniqueWord(i)} ${uniqueWord(i + 7919)} ${w[0]}`, detail: '', sourceUrl: null, sourceId: `src_pin_${i % 3}`, pinned: 0, createdAt: at(count - j + 1) };
    return { id: `sig_pin_new_${pad(i)}`, kind: KINDS[(i * 7) % 8], priority: PRIORITIES[(i * 3) % 4], title: i % 9 === 0 ? `${w[0]} ${w[1]}` : `${w[0]} ${w[1]} ${w[2]} ${i % 5 === 0 ? 'mobile release' : 'update'}`, detail: i % 13 === 0 ? '' : `Customers report ${w.join(' ')} since the last release.`, sourceUrl: i % 6 === 0 ? `https://example.com/item/${i}` : null, sourceId: i % 5 === 4 ? null : `src_pin_${i % 3}`, pinned: 0, createdAt: at(count - j + 1) };
  });
  for (let s = 0; s < rows.length; s += 200) await db.insertInto('signals').values(rows.slice(s, s + 200)).execute();
}

const ULID = /\b([a-z]{3})_([0-9A-HJKMNP-TV-Z]{26})\b/g;
/** Columns that differ from run to run whatever the cycle does: wall times, the random ingest token. */
const VARYING: Record<string, string[]> = { runs: ['duration_ms', 'engine_ms'], workspace: ['ingest_token'] };

/** Every table's rows, with the ids made during the test as `<prefix>#<rank>` and without the VARYING columns. */
async function normalizedRows(): Promise<Record<string, string[]>> {
  const fingerprint = await dbFingerprint(db);
  const text = JSON.stringify(fingerprint);
  const made = [...new Set([...text.matchAll(ULID)].map((m) => m[0]))].sort();
  const rank = new Map(made.map((id, i) => [id, `${id.slice(0, 3)}#${i}`]));
  const out: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(fingerprint)) {
    out[table] = rows
      .map((row) => {
        const parsed = JSON.parse(row) as Record<string, unknown>;
        for (const c of VARYING[table] ?? []) parsed[c] = null;
        return JSON.stringify(parsed).replace(ULID, (id) => rank.get(id) ?? id);
      })
      .sort();
  }
  return out;
}

async function countBy(table: 'activity' | 'outboxEvents', column: 'kind' | 'event'): Promise<Record<string, number>> {
  const rows = await db.selectFrom(table).select(column).execute();
  const out: Record<string, number> = {};
  for (const r of rows as Record<string, string>[]) out[r[column]] = (out[r[column]] ?? 0) + 1;
  return out;
}

describe('a local-engine cycle over 1,000 new signals', () => {
  it('writes exactly the rows it wrote before the cycle was made faster (pinned)', async () => {
    await seedWorkspace();
    await newSignals(0, 1000);
    const loop = new LoopService({ db, clock, engineFor: (s) => new LocalEngine(s.engineModel ?? undefined) });
    const first = await loop.runNow();
    expect(first).toMatchObject({ status: 'completed', counts: { signalsRead: 1000, tasksRead: 81, memoryRead: 22, notesRead: 15, tasksCreated: 94, tasksUpdated: 81, artifactsCreated: 5, memoryCreated: 3 }, inputTokens: 92_207, outputTokens: 25_127 });
    expect(await countBy('activity', 'kind')).toEqual({ 'workspace.created': 1, 'task.created': 94, 'task.priority': 50, 'task.status_changed': 6, 'artifact.created': 5, 'memory.created': 3, 'run.completed': 1 });
    expect(await countBy('outboxEvents', 'event')).toEqual({ 'task.created': 94, 'task.status_changed': 6, 'artifact.created': 5, 'artifact.ready': 5, 'artifact.superseded': 1, 'memory.created': 3, 'run.completed': 1 });
    const rows = await normalizedRows();
    expect(Object.fromEntries(Object.entries(rows).map(([table, r]) => [table, r.length]))).toMatchObject({ tasks: 184, task_tags: 96, task_work_log: 175, task_notes: 15, artifacts: 23, artifact_tags: 10, memory: 203, memory_retrieval_daily: 22, cost_daily: 245, activity: 160, outbox_events: 115, signals: 1240, runs: 1 });
    // Every id in the first cycle's prompts is a seeded one, so its token counts (and costs) are fixed.
    // Re-pinned when 0020 added the (empty) mcp_tokens table, when the built-in drafts took the shape of their deliverable,
    // and when activity rows said statuses and priorities in words ("Normal → High", issue 30).
    expect(createHash('sha256').update(JSON.stringify(rows)).digest('hex')).toBe('32994782697aa4360a9b8f0d3e367fb022015b95d773a2ec0fdd2fa4e5525ffa');

    // The next cycle works the new tasks and outputs; its prompts name ids made by the first cycle
    // (random), so its tokens vary a little from run to run: its decisions are pinned, not its costs.
    clock.advanceMinutes(30);
    await newSignals(1000, 60);
    await db.updateTable('artifacts').set({ status: 'approved', decidedAt: clock.now().toISOString() }).where('id', 'in', first.produced.artifactIds.slice(0, 2)).execute();
    const second = await loop.runNow();
    expect(second).toMatchObject({ status: 'completed', counts: { signalsRead: 60, tasksRead: 175, memoryRead: 16, notesRead: 12, tasksCreated: 15, tasksUpdated: 32, artifactsCreated: 5, memoryCreated: 0 } });
    expect(await countBy('activity', 'kind')).toEqual({ 'workspace.created': 1, 'task.created': 109, 'task.priority': 52, 'task.status_changed': 12, 'task.unblocked': 1, 'artifact.created': 10, 'memory.created': 3, 'run.completed': 2 });
    expect(await countBy('outboxEvents', 'event')).toEqual({ 'task.created': 109, 'task.status_changed': 12, 'task.unblocked': 1, 'artifact.created': 10, 'artifact.ready': 10, 'artifact.superseded': 1, 'memory.created': 3, 'run.completed': 2 });
  });
});
