import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { insertSignalRow, insertTask } from '../../testing/fixtures/loop';
import { insertMemoryRow } from '../../testing/fixtures/memory';
import { insertReaction } from '../../testing/fixtures/overview';
import { addMember, getProfile } from '../../testing/fixtures/workspace';

/** Personal inbox, insights and the reactions summary on hand-built rows (UTC workspace, now 2026-03-10T12:00Z). */
const NOW = '2026-03-10T12:00:00.000Z';
const hoursFromNow = (h: number) => new Date(Date.parse(NOW) + h * 3_600_000).toISOString();
const daysAgo = (d: number) => hoursFromNow(-24 * d);

describe('overview: personal inbox, insights, reactions', () => {
  let desk: TestDesk;
  let owner: string;
  const ids: Record<string, string> = {};

  const comment = async (taskId: string, text: string, asUserId?: string) => {
    const res = await desk.api('POST', `/api/v1/tasks/${taskId}/comments`, { text, asUserId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string };
  };

  beforeAll(async () => {
    desk = await startTestDesk({ clock: new ManualClock(NOW) });
    const ctx = { db: desk.services.db, clock: desk.clock };
    owner = (await getProfile(desk)).ownerUserId;
    await addMember(desk, 'usr_alice', 'Alice');
    await addMember(desk, 'usr_bob', 'Bob');
    await addMember(desk, 'usr_gone', 'Gone');
    await desk.services.db.updateTable('users').set({ removedAt: NOW }).where('id', '=', 'usr_gone').execute();

    // Alice's tasks: stale, pinned-stale, fresh, done-old; Bob's stale one.
    ids.stale = await insertTask(ctx, { id: 'tsk_stale', title: 'Stale one', assignedToUserId: 'usr_alice', status: 'queued', updatedAt: daysAgo(10), createdAt: daysAgo(20) });
    ids.stale2 = await insertTask(ctx, { id: 'tsk_stale2', title: 'Stale two', assignedToUserId: 'usr_alice', status: 'in_progress', updatedAt: daysAgo(6), createdAt: daysAgo(20) });
    await insertTask(ctx, { title: 'Pinned', assignedToUserId: 'usr_alice', status: 'queued', pinned: 1, updatedAt: daysAgo(10), createdAt: daysAgo(20) });
    await insertTask(ctx, { title: 'Fresh', assignedToUserId: 'usr_alice', status: 'queued', updatedAt: daysAgo(2), createdAt: daysAgo(20) });
    await insertTask(ctx, { title: 'Done old', assignedToUserId: 'usr_alice', status: 'done', updatedAt: daysAgo(10), createdAt: daysAgo(20) });
    await insertTask(ctx, { title: 'Bob stale', assignedToUserId: 'usr_bob', status: 'queued', updatedAt: daysAgo(10), createdAt: daysAgo(20) });
    // Due dates (Alice): in 24 h, overdue by 2 h, in 72 h (outside), done in 1 h (closed), needs_input in 47 h.
    ids.dueSoon = await insertTask(ctx, { id: 'tsk_due1', title: 'Due tomorrow', assignedToUserId: 'usr_alice', status: 'in_progress', dueAt: hoursFromNow(24) });
    ids.overdue = await insertTask(ctx, { id: 'tsk_due0', title: 'Overdue', assignedToUserId: 'usr_alice', status: 'queued', dueAt: hoursFromNow(-2) });
    await insertTask(ctx, { title: 'Due later', assignedToUserId: 'usr_alice', status: 'queued', dueAt: hoursFromNow(72) });
    await insertTask(ctx, { title: 'Done due', assignedToUserId: 'usr_alice', status: 'done', dueAt: hoursFromNow(1) });
    ids.needsInput = await insertTask(ctx, { id: 'tsk_due2', title: 'Needs input', assignedToUserId: 'usr_alice', status: 'needs_input', dueAt: hoursFromNow(47) });

    // Comments on one task: Bob and the owner mention Alice; Alice mentions herself and Bob.
    ids.thread = await insertTask(ctx, { id: 'tsk_thread', title: 'Launch plan' });
    desk.clock.set(hoursFromNow(-3));
    ids.cBob = (await comment(ids.thread, '@Alice can you check the numbers?', 'usr_bob')).id;
    desk.clock.set(hoursFromNow(-2));
    ids.cOwner = (await comment(ids.thread, 'Thanks @Alice, and @Bob too')).id;
    desk.clock.set(hoursFromNow(-1));
    ids.cSelf = (await comment(ids.thread, 'Note to self @Alice: and @Bob', 'usr_alice')).id;
    desk.clock.set(NOW);
  });
  afterAll(() => desk.stop());

  it('GET /workspace/personal-inbox: mentions by others, stale assigned tasks, due soon', async () => {
    const res = await desk.api('GET', '/api/v1/workspace/personal-inbox?userId=usr_alice');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: 'usr_alice', userName: 'Alice' });
    expect(res.body.mentions.total).toBe(2); // her own mention of herself is not listed
    expect(res.body.mentions.items.map((m: { commentId: string }) => m.commentId)).toEqual([ids.cOwner, ids.cBob]);
    expect(res.body.mentions.items[1]).toMatchObject({
      taskId: ids.thread,
      taskTitle: 'Launch plan',
      authorId: 'usr_bob',
      authorName: 'Bob',
      authorInitials: 'B',
      excerpt: '@Alice can you check the numbers?',
      createdAt: hoursFromNow(-3),
    });
    expect(res.body.staleTasks).toEqual({
      total: 2,
      thresholdDays: 5,
      items: [
        { id: 'tsk_stale', title: 'Stale one', status: 'queued', dueAt: null, updatedAt: daysAgo(10), daysStale: 10 },
        { id: 'tsk_stale2', title: 'Stale two', status: 'in_progress', dueAt: null, updatedAt: daysAgo(6), daysStale: 6 },
      ],
    });
    expect(res.body.dueSoon.total).toBe(3);
    expect(res.body.dueSoon.windowHours).toBe(48);
    expect(res.body.dueSoon.items.map((t: { id: string; overdue: boolean; hoursUntilDue: number }) => [t.id, t.overdue, t.hoursUntilDue])).toEqual([
      ['tsk_due0', true, -2],
      ['tsk_due1', false, 24],
      ['tsk_due2', false, 47],
    ]);

    const narrower = await desk.api('GET', '/api/v1/workspace/personal-inbox?userId=usr_alice&thresholdDays=7');
    expect(narrower.body.staleTasks.items.map((t: { id: string }) => t.id)).toEqual(['tsk_stale']);
    expect(narrower.body.staleTasks.total).toBe(1);
  });

  it('GET /workspace/personal-inbox: per member; the owner by default; an acknowledged mention leaves', async () => {
    const bob = await desk.api('GET', '/api/v1/workspace/personal-inbox?userId=usr_bob');
    expect(bob.body.mentions.items.map((m: { commentId: string }) => m.commentId)).toEqual([ids.cSelf, ids.cOwner]);
    expect(bob.body.staleTasks.total).toBe(1);
    expect(bob.body.dueSoon.total).toBe(0);

    const mine = await desk.api('GET', '/api/v1/workspace/personal-inbox');
    expect(mine.body).toMatchObject({ userId: owner, mentions: { total: 0, items: [] }, staleTasks: { total: 0 }, dueSoon: { total: 0 } });

    const alice = await desk.api('GET', '/api/v1/workspace/personal-inbox?userId=usr_alice');
    const ack = await desk.api('POST', `/api/v1/mentions/${alice.body.mentions.items[0].mentionId}/ack`, { asUserId: 'usr_alice' });
    expect(ack.status).toBe(200);
    const after = await desk.api('GET', '/api/v1/workspace/personal-inbox?userId=usr_alice');
    expect(after.body.mentions.total).toBe(1);
    expect(after.body.mentions.items[0].commentId).toBe(ids.cBob);
  });

  it('GET /workspace/personal-inbox: a non-member, a removed member or a bad threshold is a 422', async () => {
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/workspace/personal-inbox?userId=usr_nobody' }, { field: 'userId' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/workspace/personal-inbox?userId=usr_gone' }, { field: 'userId' });
    for (const t of ['0', '61', '2.5']) {
      await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/workspace/personal-inbox?thresholdDays=${t}` }, { field: 'thresholdDays' });
    }
  });

  it('GET /insights: tags of the trailing 14 workspace days across tasks, outputs and memory', async () => {
    const ctx = { db: desk.services.db, clock: desk.clock };
    // The window is 02-25..03-10: from 2026-02-25T00:00Z.
    await insertTask(ctx, { createdAt: '2026-03-09T10:00:00.000Z' }, ['growth', 'seo']);
    await insertTask(ctx, { createdAt: '2026-02-25T00:30:00.000Z' }, ['growth']);
    await insertTask(ctx, { createdAt: '2026-02-24T23:59:00.000Z' }, ['growth', 'old']);
    await insertArtifactRow(desk, { createdAt: '2026-03-10T08:00:00.000Z', tags: ['seo'] });
    await insertArtifactRow(desk, { createdAt: '2026-03-10T08:00:00.000Z' });
    await insertMemoryRow(desk, { createdAt: '2026-03-01T00:00:00.000Z', tags: ['growth', 'pricing'] });
    await insertMemoryRow(desk, { createdAt: '2026-03-01T00:00:00.000Z' });
    const res = await desk.api('GET', '/api/v1/insights');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      fromDay: '2026-02-25',
      toDay: '2026-03-10',
      windowDays: 14,
      tags: [
        { tag: 'growth', total: 3, tasks: 2, artifacts: 0, memory: 1 },
        { tag: 'seo', total: 2, tasks: 1, artifacts: 1, memory: 0 },
        { tag: 'pricing', total: 1, tasks: 0, artifacts: 0, memory: 1 },
      ],
      distinctTags: 3,
      taggedItems: { tasks: 2, artifacts: 1, memory: 1 },
    });
    const two = await desk.api('GET', '/api/v1/insights?limit=2');
    expect(two.body.tags.map((t: { tag: string }) => t.tag)).toEqual(['growth', 'seo']);
    expect(two.body.distinctTags).toBe(3);
    for (const l of ['0', '51', 'x']) await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/insights?limit=${l}` }, { field: 'limit' });
  });

  it('GET /workspace/reactions-summary: per-emoji totals by kind and the top reacted things', async () => {
    const ctx = { db: desk.services.db, clock: desk.clock };
    const sig = await insertSignalRow(ctx, { id: 'sig_hot', title: 'Competitor launch' });
    const art = await insertArtifactRow(desk, { id: 'art_liked', title: 'Weekly brief' });
    const mem = await insertMemoryRow(desk, { id: 'mem_seen', title: 'Pricing fact' });
    for (const u of [owner, 'usr_alice', 'usr_bob']) await insertReaction(desk, 'signal', sig, u, '👍', hoursFromNow(-5));
    await insertReaction(desk, 'signal', sig, owner, '🚀', hoursFromNow(-5));
    await insertReaction(desk, 'artifact', art, owner, '❤️', hoursFromNow(-4));
    await insertReaction(desk, 'artifact', art, 'usr_alice', '❤️', hoursFromNow(-4));
    await insertReaction(desk, 'memory', mem, owner, '👀', hoursFromNow(-4));
    await insertReaction(desk, 'comment', ids.cBob, 'usr_alice', '👍', hoursFromNow(-4));
    await insertReaction(desk, 'comment', ids.cBob, 'usr_bob', '🎯', hoursFromNow(-1)); // newer than the output's: first of the tie

    const res = await desk.api('GET', '/api/v1/workspace/reactions-summary');
    expect(res.status).toBe(200);
    expect(res.body.emojis).toEqual([
      { emoji: '👍', total: 4, comments: 1, artifacts: 0, memory: 0, signals: 3 },
      { emoji: '👀', total: 1, comments: 0, artifacts: 0, memory: 1, signals: 0 },
      { emoji: '🎯', total: 1, comments: 1, artifacts: 0, memory: 0, signals: 0 },
      { emoji: '❤️', total: 2, comments: 0, artifacts: 2, memory: 0, signals: 0 },
      { emoji: '🚀', total: 1, comments: 0, artifacts: 0, memory: 0, signals: 1 },
    ]);
    expect(res.body.totals).toEqual({ total: 9, comments: 2, artifacts: 2, memory: 1, signals: 4 });
    expect(res.body.topLimit).toBe(8);
    expect(res.body.top).toEqual([
      { kind: 'signal', id: sig, title: 'Competitor launch', taskId: null, total: 4, reactions: [{ emoji: '👍', count: 3 }, { emoji: '🚀', count: 1 }] },
      { kind: 'comment', id: ids.cBob, title: '@Alice can you check the numbers?', taskId: ids.thread, total: 2, reactions: [{ emoji: '👍', count: 1 }, { emoji: '🎯', count: 1 }] },
      { kind: 'artifact', id: art, title: 'Weekly brief', taskId: null, total: 2, reactions: [{ emoji: '❤️', count: 2 }] },
      { kind: 'memory', id: mem, title: 'Pricing fact', taskId: null, total: 1, reactions: [{ emoji: '👀', count: 1 }] },
    ]);
    const two = await desk.api('GET', '/api/v1/workspace/reactions-summary?topLimit=2');
    expect(two.body.top.map((t: { id: string }) => t.id)).toEqual([sig, ids.cBob]);
    for (const l of ['0', '51', '1.5']) await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/workspace/reactions-summary?topLimit=${l}` }, { field: 'topLimit' });
  });
});
