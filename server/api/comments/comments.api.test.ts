import { describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../../core/clock';
import { resolveActor } from '../../domain/members/resolve-actor';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';
import { hueOf } from '../../domain/comments/comment-rules';

const shared = useTestDesk();
const desk = () => shared.desk;

/** A task row written directly (the tasks API lives on its own branch). */
const insertTask = (title = 'Write the launch brief') => insertTaskRow(desk(), { title });

async function post(taskId: string, body: Record<string, unknown>) {
  const res = await desk().api('POST', `/api/v1/tasks/${taskId}/comments`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  desk().clock.advance(MINUTE_MS);
  return res.body;
}

async function list(taskId: string, query = '') {
  const res = await desk().api('GET', `/api/v1/tasks/${taskId}/comments${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('POST /tasks/{id}/comments', () => {
  it('posts a comment by the owner by default, logs it and emits comment.created', async () => {
    const taskId = await insertTask();
    const owner = await resolveActor(desk().services.db);
    const res = await desk().api('POST', `/api/v1/tasks/${taskId}/comments`, { text: '  Looks good  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^cmt_/),
      taskId,
      parentCommentId: null,
      text: 'Looks good',
      authorId: owner.userId,
      authorName: owner.label,
      authorInitials: expect.stringMatching(/^\p{Lu}{1,2}$/u),
      authorHue: hueOf(owner.userId),
      mentionedUserIds: [],
      reactions: [],
      createdAt: '2026-03-10T12:00:00.000Z',
    });
    const activity = await desk().services.db.selectFrom('activity').selectAll().where('kind', '=', 'comment.created').execute();
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ entityType: 'comment', entityId: res.body.id, actorUserId: owner.userId, detail: 'Commented on task: Write the launch brief' });
    const events = await desk().services.db.selectFrom('outboxEvents').selectAll().where('event', '=', 'comment.created').execute();
    expect(events.map((e) => JSON.parse(e.payload).data)).toEqual([{ commentId: res.body.id, taskId, parentCommentId: null, authorUserId: owner.userId, mentionedUserIds: [] }]);
  });

  it('accepts 1 and 4000 characters and refuses 0 and 4001, changing nothing', async () => {
    const taskId = await insertTask();
    await post(taskId, { text: 'x' });
    await post(taskId, { text: 'y'.repeat(4000) });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${taskId}/comments`, body: { text: 'y'.repeat(4001) } }, { field: 'text' });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${taskId}/comments`, body: { text: '' } }, { field: 'text' });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${taskId}/comments`, body: { text: '   ' } }, { field: 'text' });
  });

  it('refuses an unknown task (404), a non-member author and a parent of another task (422), changing nothing', async () => {
    const taskId = await insertTask();
    const other = await insertTask('Other');
    const foreign = await post(other, { text: 'elsewhere' });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: '/api/v1/tasks/tsk_nope/comments', body: { text: 'hi' } }, { status: 404, error: 'task_not_found' });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${taskId}/comments`, body: { text: 'hi', asUserId: 'usr_nobody' } }, { field: 'asUserId' });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${taskId}/comments`, body: { text: 'hi', parentCommentId: foreign.id } }, { field: 'parentCommentId' });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${taskId}/comments`, body: { text: 'hi', parentCommentId: 'cmt_nope' } }, { field: 'parentCommentId' });
  });

  it('threads replies one level deep: a reply to a reply joins the top-level thread', async () => {
    const taskId = await insertTask();
    await addMember(desk(), 'usr_ana', 'Ana Lima');
    const root = await post(taskId, { text: 'Root' });
    const reply = await post(taskId, { text: 'Reply', parentCommentId: root.id, asUserId: 'usr_ana' });
    const nested = await post(taskId, { text: 'Nested', parentCommentId: reply.id });
    expect(reply).toMatchObject({ parentCommentId: root.id, authorId: 'usr_ana', authorName: 'Ana Lima', authorInitials: 'AL', authorHue: hueOf('usr_ana') });
    expect(nested.parentCommentId).toBe(root.id);
  });

  it('refuses a 1001st comment on a task with 409 limit_reached', async () => {
    const taskId = await insertTask();
    const owner = await resolveActor(desk().services.db);
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      id: `cmt_bulk${String(i).padStart(4, '0')}`,
      taskId,
      parentCommentId: null,
      authorUserId: owner.userId,
      text: 'old',
      createdAt: '2026-03-01T00:00:00.000Z',
    }));
    for (let i = 0; i < rows.length; i += 100) await desk().services.db.insertInto('taskComments').values(rows.slice(i, i + 100)).execute();
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${taskId}/comments`, body: { text: 'one more' } }, { status: 409, error: 'limit_reached' });
  });
});

describe('mentions', () => {
  it('records @name mentions case-insensitively (longest name wins, not in emails or words) and acknowledges them once', async () => {
    const taskId = await insertTask();
    await addMember(desk(), 'usr_ana', 'Ana');
    await addMember(desk(), 'usr_analima', 'Ana Lima');
    await addMember(desk(), 'usr_bo', 'Bo');
    const comment = await post(taskId, { text: '@ana lima please check; cc @BO. mail bo@bo.example, not @Bob' });
    expect(comment.mentionedUserIds.sort()).toEqual(['usr_analima', 'usr_bo']);
    const second = await post(taskId, { text: 'and @Ana, too' });
    expect(second.mentionedUserIds).toEqual(['usr_ana']);
    // A removed member is no longer mentioned.
    expect((await desk().api('DELETE', '/api/v1/workspace/members/usr_ana', {})).status).toBe(200);
    expect((await post(taskId, { text: '@Ana again' })).mentionedUserIds).toEqual([]);

    const mine = await desk().api('GET', '/api/v1/mentions?userId=usr_bo');
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      mentions: [{ id: expect.stringMatching(/^mnt_/), commentId: comment.id, taskId, userId: 'usr_bo', authorId: comment.authorId, text: comment.text, acknowledgedAt: null, createdAt: comment.createdAt }],
      nextCursor: null,
    });
    const mentionId = mine.body.mentions[0].id;
    const ack = await desk().api('POST', `/api/v1/mentions/${mentionId}/ack`, { asUserId: 'usr_bo' });
    expect(ack.status).toBe(200);
    expect(ack.body.acknowledgedAt).toBe(desk().clock.now().toISOString());
    expect((await desk().api('GET', '/api/v1/mentions?userId=usr_bo')).body.mentions).toEqual([]);
    // Again: the same answer, no second activity row or event.
    desk().clock.advance(MINUTE_MS);
    await expectRejectedUnchanged(desk(), { method: 'POST', path: '/api/v1/mentions/mnt_nope/ack', body: {} }, { status: 404, error: 'mention_not_found' });
    const again = await desk().api('POST', `/api/v1/mentions/${mentionId}/ack`, {});
    expect(again.body).toEqual(ack.body);
    expect(await desk().services.db.selectFrom('activity').select('id').where('kind', '=', 'mention.acknowledged').execute()).toHaveLength(1);
    expect(await desk().services.db.selectFrom('outboxEvents').select('id').where('event', '=', 'mention.acknowledged').execute()).toHaveLength(1);
  });

  it('pages a member\'s mentions newest first', async () => {
    const taskId = await insertTask();
    await addMember(desk(), 'usr_bo', 'Bo');
    for (const n of [1, 2, 3]) await post(taskId, { text: `@Bo ${n}` });
    const first = await desk().api('GET', '/api/v1/mentions?userId=usr_bo&limit=2');
    expect(first.body.mentions.map((m: { text: string }) => m.text)).toEqual(['@Bo 3', '@Bo 2']);
    const next = await desk().api('GET', `/api/v1/mentions?userId=usr_bo&limit=2&cursor=${first.body.nextCursor}`);
    expect(next.body).toMatchObject({ mentions: [{ text: '@Bo 1' }], nextCursor: null });
    await expectRejectedUnchanged(desk(), { method: 'GET', path: '/api/v1/mentions?userId=usr_nobody' }, { field: 'userId' });
  });
});

describe('POST /tasks/{id}/comments/{commentId}/reaction', () => {
  it('toggles a member\'s reaction with the shared summary shape, logged both ways', async () => {
    const taskId = await insertTask();
    await addMember(desk(), 'usr_ana', 'Ana');
    const c = await post(taskId, { text: 'React to me' });
    const path = `/api/v1/tasks/${taskId}/comments/${c.id}/reaction`;
    const owner = await resolveActor(desk().services.db);
    expect((await desk().api('POST', path, { emoji: '🚀' })).body).toEqual({
      commentId: c.id,
      emoji: '🚀',
      reacted: true,
      reactions: [{ emoji: '🚀', count: 1, userIds: [owner.userId], reacted: true }],
    });
    desk().clock.advance(MINUTE_MS);
    expect((await desk().api('POST', path, { emoji: '🚀', asUserId: 'usr_ana' })).body.reactions).toEqual([{ emoji: '🚀', count: 2, userIds: [owner.userId, 'usr_ana'], reacted: true }]);
    const off = await desk().api('POST', path, { emoji: '🚀' });
    expect(off.body).toMatchObject({ reacted: false, reactions: [{ emoji: '🚀', count: 1, userIds: ['usr_ana'], reacted: false }] });
    const kinds = (await desk().services.db.selectFrom('activity').select('kind').where('entityId', '=', c.id).orderBy('id').execute()).map((r) => r.kind);
    expect(kinds).toEqual(['comment.created', 'comment.reaction_added', 'comment.reaction_added', 'comment.reaction_removed']);
    expect((await list(taskId)).comments[0].reactions).toEqual([{ emoji: '🚀', count: 1, userIds: ['usr_ana'], reacted: false }]);
  });

  it('refuses an unknown comment or a comment of another task (404) and a foreign emoji (422), changing nothing', async () => {
    const taskId = await insertTask();
    const other = await insertTask('Other');
    const c = await post(other, { text: 'elsewhere' });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${taskId}/comments/${c.id}/reaction`, body: { emoji: '👍' } }, { status: 404, error: 'comment_not_found' });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${other}/comments/${c.id}/reaction`, body: { emoji: '😀' } }, { field: 'emoji' });
  });
});

describe('GET /tasks/{id}/comments', () => {
  it('answers exactly the documented shape without filters', async () => {
    const taskId = await insertTask();
    await addMember(desk(), 'usr_ana', 'Ana Lima');
    const a = await post(taskId, { text: 'First' });
    const b = await post(taskId, { text: 'Second', asUserId: 'usr_ana' });
    const r = await post(taskId, { text: 'Reply to first', parentCommentId: a.id, asUserId: 'usr_ana' });
    const body = await list(taskId);
    expect(Object.keys(body).sort()).toEqual(['authorId', 'authors', 'comments', 'filtered', 'matchedIds', 'query', 'since', 'total'].sort());
    expect(body.comments.map((c: { id: string }) => c.id)).toEqual([a.id, r.id, b.id]);
    expect(body).toMatchObject({ total: 3, filtered: 3, matchedIds: [], query: null, authorId: null, since: null });
    const byName = [a.authorName, 'Ana Lima'].sort((x, y) => x.localeCompare(y, 'en'));
    expect(body.authors.map((x: { name: string }) => x.name)).toEqual(byName);
    expect(body.authors).toContainEqual({ userId: 'usr_ana', name: 'Ana Lima', authorInitials: 'AL', authorHue: hueOf('usr_ana'), commentCount: 2 });
    expect(body.authors).toContainEqual({ userId: a.authorId, name: a.authorName, authorInitials: a.authorInitials, authorHue: hueOf(a.authorId), commentCount: 1 });
  });

  it('matches q on body and author name; a matched reply brings its parent, a matched parent its replies', async () => {
    const taskId = await insertTask();
    await addMember(desk(), 'usr_zed', 'Zed Quill');
    const root = await post(taskId, { text: 'Plan the launch' });
    const reply = await post(taskId, { text: 'Budget is tight', parentCommentId: root.id });
    const other = await post(taskId, { text: 'Unrelated', asUserId: 'usr_zed' });
    const otherReply = await post(taskId, { text: 'ok', parentCommentId: other.id });

    const budget = await list(taskId, '?q=BUDGET');
    expect(budget.comments.map((c: { id: string }) => c.id)).toEqual([root.id, reply.id]);
    expect(budget).toMatchObject({ matchedIds: [reply.id], filtered: 1, total: 4, query: 'BUDGET' });

    const plan = await list(taskId, '?q=plan');
    expect(plan.comments.map((c: { id: string }) => c.id)).toEqual([root.id, reply.id]);
    expect(plan).toMatchObject({ matchedIds: [root.id], filtered: 2 });

    const byName = await list(taskId, '?q=quill');
    expect(byName.comments.map((c: { id: string }) => c.id)).toEqual([other.id, otherReply.id]);
    expect(byName).toMatchObject({ matchedIds: [other.id], filtered: 2 });
  });

  it('intersects q, authorId and since', async () => {
    const taskId = await insertTask();
    await addMember(desk(), 'usr_ana', 'Ana');
    await post(taskId, { text: 'deploy notes', asUserId: 'usr_ana' });
    desk().clock.advance(DAY_MS);
    const since = desk().clock.now().toISOString();
    const late = await post(taskId, { text: 'deploy again', asUserId: 'usr_ana' });
    await post(taskId, { text: 'deploy by owner' });
    const body = await list(taskId, `?q=deploy&authorId=usr_ana&since=${encodeURIComponent(since)}`);
    expect(body).toMatchObject({ matchedIds: [late.id], filtered: 1, total: 3, authorId: 'usr_ana', since, query: 'deploy' });
    expect(body.comments.map((c: { id: string }) => c.id)).toEqual([late.id]);
    expect((await list(taskId, '?authorId=usr_nobody')).comments).toEqual([]);
  });

  it('accepts q of 200 characters and since 365 days back; refuses 201 characters and 366 days', async () => {
    const taskId = await insertTask();
    await post(taskId, { text: 'a' });
    const now = desk().clock.now().getTime();
    expect((await list(taskId, `?q=${'q'.repeat(200)}`)).filtered).toBe(0);
    expect((await list(taskId, `?since=${new Date(now - 365 * DAY_MS).toISOString()}`)).filtered).toBe(1);
    await expectRejectedUnchanged(desk(), { method: 'GET', path: `/api/v1/tasks/${taskId}/comments?q=${'q'.repeat(201)}` }, { field: 'q' });
    await expectRejectedUnchanged(desk(), { method: 'GET', path: `/api/v1/tasks/${taskId}/comments?since=${new Date(now - 366 * DAY_MS).toISOString()}` }, { field: 'since' });
    await expectRejectedUnchanged(desk(), { method: 'GET', path: `/api/v1/tasks/${taskId}/comments?since=yesterday` }, { field: 'since' });
    await expectRejectedUnchanged(desk(), { method: 'GET', path: '/api/v1/tasks/tsk_nope/comments' }, { status: 404, error: 'task_not_found' });
  });
});

describe('GET /tasks/{id}/engagement', () => {
  it('counts comments and reactions, the top emoji and the most reacted comments', async () => {
    const taskId = await insertTask();
    await addMember(desk(), 'usr_ana', 'Ana');
    expect((await desk().api('GET', `/api/v1/tasks/${taskId}/engagement`)).body).toEqual({
      commentCount: 0,
      totalReactions: 0,
      topEmoji: null,
      reactionTotals: { '👍': 0, '👀': 0, '🎯': 0, '❤️': 0, '🚀': 0 },
      topReactedComments: [],
    });
    const a = await post(taskId, { text: 'A' });
    const b = await post(taskId, { text: 'B', asUserId: 'usr_ana' });
    await post(taskId, { text: 'C' });
    const react = (id: string, emoji: string, asUserId?: string) => desk().api('POST', `/api/v1/tasks/${taskId}/comments/${id}/reaction`, { emoji, asUserId });
    await react(b.id, '👀');
    await react(b.id, '👀', 'usr_ana');
    await react(b.id, '🎯');
    await react(a.id, '🎯', 'usr_ana');
    const body = (await desk().api('GET', `/api/v1/tasks/${taskId}/engagement`)).body;
    expect(body).toEqual({
      commentCount: 3,
      totalReactions: 4,
      topEmoji: '👀',
      reactionTotals: { '👍': 0, '👀': 2, '🎯': 2, '❤️': 0, '🚀': 0 },
      topReactedComments: [
        { commentId: b.id, text: 'B', authorId: 'usr_ana', authorName: 'Ana', authorInitials: 'A', authorHue: hueOf('usr_ana'), reactionCount: 3 },
        expect.objectContaining({ commentId: a.id, reactionCount: 1 }),
      ],
    });
    expect((await desk().api('GET', '/api/v1/tasks/tsk_nope/engagement')).status).toBe(404);
  });
});

describe('GET /tasks/{id}/timeline', () => {
  it('carries the task\'s comments as comment entries, paged with the rest', async () => {
    const taskId = await insertTask();
    await addMember(desk(), 'usr_ana', 'Ana');
    desk().clock.advance(MINUTE_MS); // after the creation entry
    const root = await post(taskId, { text: 'On the timeline' });
    const reply = await post(taskId, { text: 'Me too', parentCommentId: root.id, asUserId: 'usr_ana' });
    const res = await desk().api('GET', `/api/v1/tasks/${taskId}/timeline`);
    expect(res.status).toBe(200);
    const comments = res.body.entries.filter((e: { type: string }) => e.type === 'comment');
    expect(comments).toEqual([
      { id: reply.id, type: 'comment', at: reply.createdAt, text: 'Me too', actorLabel: 'Ana', actorUserId: 'usr_ana', activityKind: null },
      { id: root.id, type: 'comment', at: root.createdAt, text: 'On the timeline', actorLabel: root.authorName, actorUserId: root.authorId, activityKind: null },
    ]);
    const first = await desk().api('GET', `/api/v1/tasks/${taskId}/timeline?limit=1`);
    expect(first.body.entries.map((e: { id: string }) => e.id)).toEqual([reply.id]);
    const next = await desk().api('GET', `/api/v1/tasks/${taskId}/timeline?limit=1&cursor=${first.body.nextCursor}`);
    expect(next.body.entries.map((e: { id: string }) => e.id)).toEqual([root.id]);
  });
});
