import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../core/clock';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

const shared = useTestDesk();
const DAY_MS = 24 * HOUR_MS;
type Row = { id: string; approvalAttention: string; approvalAgeHours: number; readyAt: string; decidedAt: string | null; status: string };

const ago = (ms: number) => new Date(shared.desk.clock.now().getTime() - ms).toISOString();
const ids = (body: { artifacts: Row[] }) => body.artifacts.map((a) => a.id);

/** A ready output whose review began `ms` ago, owned by `ownerId` through its task (none when null). */
async function waiting(id: string, ms: number, ownerId: string | null = null, extra: Parameters<typeof insertArtifactRow>[1] = {}) {
  const { desk } = shared;
  const taskId = ownerId === null ? null : await insertTaskRow(desk, { assignedToUserId: ownerId });
  return insertArtifactRow(desk, { id, taskId, readyAt: ago(ms), createdAt: ago(ms), updatedAt: ago(ms), ...extra });
}

/** An output decided `decidedMsAgo` ago after waiting `waitMs`. */
async function decided(id: string, decidedMsAgo: number, waitMs: number, status: 'approved' | 'archived' = 'approved', extra: Parameters<typeof insertArtifactRow>[1] = {}) {
  const readyAt = ago(decidedMsAgo + waitMs);
  return insertArtifactRow(shared.desk, { id, status, readyAt, createdAt: readyAt, updatedAt: readyAt, decidedAt: ago(decidedMsAgo), ...extra });
}

async function members() {
  const { desk } = shared;
  await addMember(desk, 'usr_ann', 'Ann');
  await addMember(desk, 'usr_bob', 'Bob');
  await addMember(desk, 'usr_cat', 'Cat');
  await addMember(desk, 'usr_vic', 'Vic', 'viewer');
  await desk.services.db.updateTable('users').set({ availability: 'away' }).where('id', '=', 'usr_cat').execute();
}

describe('attention at the exact thresholds', () => {
  it.each([
    ['Daily', { watchHours: 24, overdueHours: 72 }],
    ['Fast', { watchHours: 4, overdueHours: 12 }],
  ] as const)('labels the %s policy: fresh 1 ms before watch, watch at it, overdue at the overdue threshold', async (_name, policy) => {
    const { desk } = shared;
    expect((await desk.api('PATCH', '/api/v1/workspace/approval-policy', policy)).status).toBe(200);
    await waiting('art_a', policy.watchHours * HOUR_MS - 1);
    await waiting('art_b', policy.watchHours * HOUR_MS);
    await waiting('art_c', policy.overdueHours * HOUR_MS - 1);
    await waiting('art_d', policy.overdueHours * HOUR_MS);
    const res = await desk.api('GET', '/api/v1/artifacts');
    expect(res.status).toBe(200);
    const label = Object.fromEntries(res.body.artifacts.map((a: Row) => [a.id, a.approvalAttention]));
    expect(label).toEqual({ art_a: 'fresh', art_b: 'watch', art_c: 'watch', art_d: 'overdue' });
    expect(res.body.artifacts.find((a: Row) => a.id === 'art_d').approvalAgeHours).toBe(policy.overdueHours);
    expect(res.body.approvalPolicy).toEqual(policy);
    expect(res.body.approvalAging).toMatchObject({ waiting: 4, fresh: 1, pastWatch: 3, pastOverdue: 1, oldestWaitHours: policy.overdueHours, oldestArtifactId: 'art_d' });

    for (const [attention, expected] of [['fresh', ['art_a']], ['watch', ['art_c', 'art_b']], ['overdue', ['art_d']]] as const) {
      expect(ids((await desk.api('GET', `/api/v1/artifacts?attention=${attention}`)).body), attention).toEqual(expected);
    }
    // One millisecond later the fresh one is on watch: time only changes the label, never the status.
    desk.clock.advance(1);
    const later = await desk.api('GET', '/api/v1/artifacts/art_a');
    expect(later.body).toMatchObject({ status: 'ready', approvalAttention: 'watch' });
  });
});

describe('GET /artifacts: filters and order', () => {
  it('puts pinned outputs first, then oldest first (recent: newest first), and filters by reviewer', async () => {
    const { desk } = shared;
    await members();
    await waiting('art_old', 50 * HOUR_MS, 'usr_ann');
    await waiting('art_mid', 20 * HOUR_MS, null);
    await waiting('art_new', 2 * HOUR_MS, 'usr_bob');
    await waiting('art_pin', 1 * HOUR_MS, null, { pinned: true });
    await decided('art_done', HOUR_MS, HOUR_MS);

    expect(ids((await desk.api('GET', '/api/v1/artifacts')).body)).toEqual(['art_pin', 'art_old', 'art_mid', 'art_new']);
    expect(ids((await desk.api('GET', '/api/v1/artifacts?status=ready&sort=recent')).body)).toEqual(['art_pin', 'art_new', 'art_mid', 'art_old']);
    expect(ids((await desk.api('GET', '/api/v1/artifacts?reviewer=assigned')).body)).toEqual(['art_old', 'art_new']);
    expect(ids((await desk.api('GET', '/api/v1/artifacts?reviewer=unassigned')).body)).toEqual(['art_pin', 'art_mid']);
    expect(ids((await desk.api('GET', '/api/v1/artifacts?reviewerId=usr_bob')).body)).toEqual(['art_new']);
    expect(ids((await desk.api('GET', '/api/v1/artifacts?status=approved')).body)).toEqual(['art_done']);

    // Pages follow the same order; the cursor carries (pinned, readyAt, id).
    const first = await desk.api('GET', '/api/v1/artifacts?limit=3');
    expect(ids(first.body)).toEqual(['art_pin', 'art_old', 'art_mid']);
    const next = await desk.api('GET', `/api/v1/artifacts?limit=3&cursor=${first.body.nextCursor}`);
    expect(next.body).toMatchObject({ artifacts: [{ id: 'art_new' }], nextCursor: null });

    const row = first.body.artifacts[1];
    expect(row.reviewOwner).toEqual({ userId: 'usr_ann', name: 'Ann' });
    expect(first.body.artifacts[2].reviewOwner).toBeNull();
    expect(first.body.artifacts[2].reviewOwnerCapacity).toBeNull();
  });
});

describe('GET /artifacts: aggregates', () => {
  it('computes aging, ownership, capacity and throughput over every ready output, whatever the filters and limit', async () => {
    const { desk } = shared;
    await members();
    // Daily policy (24/72). Ready: Ann 5 (ages 1, 30, 80, 100, 110 h), Bob 1 (2 h), Cat (away) 1 (90 h), Vic (viewer) 1 (3 h), unassigned 1 (5 h).
    for (const [i, h] of [1, 30, 80, 100, 110].entries()) await waiting(`art_ann${i}`, h * HOUR_MS, 'usr_ann');
    await waiting('art_bob', 2 * HOUR_MS, 'usr_bob');
    await waiting('art_cat', 90 * HOUR_MS, 'usr_cat');
    await waiting('art_vic', 3 * HOUR_MS, 'usr_vic');
    await waiting('art_none', 5 * HOUR_MS, null);
    // Decisions: this week waits 2, 4, 6, 80 h (one archived); the week before 10, 10, 10 h; an inferred sample (no stored readyAt) of 30 h this week.
    await decided('art_d1', 1 * HOUR_MS, 2 * HOUR_MS);
    await decided('art_d2', 2 * HOUR_MS, 4 * HOUR_MS);
    await decided('art_d3', 3 * HOUR_MS, 6 * HOUR_MS, 'archived');
    await decided('art_d4', 4 * HOUR_MS, 80 * HOUR_MS);
    for (const d of [8, 9, 10]) await decided(`art_w${d}`, d * DAY_MS, 10 * HOUR_MS);
    await insertArtifactRow(desk, { id: 'art_inf', status: 'approved', readyAt: '', createdAt: ago(35 * HOUR_MS), updatedAt: ago(35 * HOUR_MS), decidedAt: ago(5 * HOUR_MS) });

    const all = await desk.api('GET', '/api/v1/artifacts?asUserId=usr_ann');
    const filtered = await desk.api('GET', '/api/v1/artifacts?asUserId=usr_ann&attention=fresh&reviewer=unassigned&limit=1');
    expect(all.status).toBe(200);
    expect(ids(filtered.body)).toEqual(['art_none']);
    for (const key of ['approvalPolicy', 'approvalAging', 'approvalOwnership', 'approvalCapacity', 'approvalThroughput']) expect(filtered.body[key], key).toEqual(all.body[key]);

    const b = all.body;
    // fresh: 1, 2, 3, 5 h; past watch: 30, 80, 90, 100, 110; past overdue: 80, 90, 100, 110.
    expect(b.approvalAging).toEqual({ waiting: 9, fresh: 4, pastWatch: 5, pastOverdue: 4, oldestWaitHours: 110, oldestArtifactId: 'art_ann4' });
    expect(b.approvalOwnership).toEqual({ assigned: 8, unassigned: 1, mine: 5, mineOverdue: 3 });

    const c = b.approvalCapacity;
    expect(c.coverage).toEqual({ considered: 9, waiting: 9, bound: 200, complete: true });
    // 9 covered over 2 available reviewers (Ann, Bob; the owner reviews too but owns none).
    expect(c.availableReviewers).toBe(3);
    expect(c.unavailableReviewers).toBe(1);
    expect(c.targetLoad).toBe(3);
    expect({ ao: c.availableOwned, aw: c.awayOwned, un: c.unassigned, other: c.otherOwned }).toEqual({ ao: 6, aw: 1, un: 1, other: 1 });
    expect(c.mostLoaded).toEqual({ userId: 'usr_ann', name: 'Ann', load: 5 });
    expect(c.queueSpread).toBe(5);
    // Cat is away with a waiting review: the suggestion hands it to the lightest available reviewer.
    expect(c.suggestion).toMatchObject({ reason: 'away', fromUserId: 'usr_cat', artifactIds: ['art_cat'] });
    expect(c.state).toBe('unbalanced');
    const annRow = b.artifacts.find((a: Row) => a.id === 'art_ann4');
    expect(annRow.reviewOwnerCapacity).toEqual({ availability: 'available', load: 5, targetLoad: 3, overdue: 3 });
    expect(b.artifacts.find((a: Row) => a.id === 'art_cat').reviewOwnerCapacity).toEqual({ availability: 'away', load: 1, targetLoad: 3, overdue: 1 });
    expect(b.artifacts.find((a: Row) => a.id === 'art_vic').reviewOwnerCapacity).toMatchObject({ availability: 'not_a_reviewer' });

    const t = b.approvalThroughput;
    // Last 7 days: waits 2, 4, 6, 30 (inferred), 80 -> median 6; past 72 h: 1/5; within 24 h: 3/5.
    expect(t.last7Days).toMatchObject({ decisions: 5, approved: 4, archived: 1, medianHours: 6, past72hShare: 0.2, within24hShare: 0.6, withinWatchShare: 0.6, pastPolicyShare: 0.2, exactSamples: 4, inferredSamples: 1, sampleQuality: 'mixed' });
    // 30 days: 2, 4, 6, 10, 10, 10, 30, 80 -> median 10, p90 = ceil(7.2) = 8th = 80.
    expect(t.last30Days).toMatchObject({ decisions: 8, medianHours: 10 });
    expect(t.p90Hours30d).toBe(80);
    // 6 this week against 10 the week before: 40% faster.
    expect(t.trend).toEqual({ direction: 'faster', thisWeekMedianHours: 6, lastWeekMedianHours: 10, changeShare: -0.4 });
    expect(t.daily).toHaveLength(14);
  });

  it('covers only the oldest 200 waiting reviews in capacity, and says when no reviewer is available', async () => {
    const { desk } = shared;
    await desk.services.db.updateTable('users').set({ availability: 'away' }).execute();
    const taskId = await insertTaskRow(desk, { assignedToUserId: (await desk.services.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id });
    const rows = Array.from({ length: 205 }, (_, i) => ({ id: `art_${String(i).padStart(3, '0')}`, at: ago((i + 1) * 60_000) }));
    await desk.services.db
      .insertInto('artifacts')
      .values(rows.map((r) => ({ id: r.id, taskId, version: 1, kind: 'report', title: r.id, content: '', status: 'ready', readyAt: r.at, createdAt: r.at, updatedAt: r.at })))
      .execute();
    const c = (await desk.api('GET', '/api/v1/artifacts?limit=1')).body.approvalCapacity;
    expect(c.coverage).toEqual({ considered: 200, waiting: 205, bound: 200, complete: false });
    expect(c.state).toBe('no_reviewer_available');
    expect(c.targetLoad).toBeNull();
    expect(c.reviewers[0].load).toBe(200);
  });
});

describe('readyAt and decidedAt are immutable', () => {
  it('tags, pins and reactions change neither the review clock nor the attention', async () => {
    const { desk } = shared;
    const id = await waiting('art_x', 30 * HOUR_MS);
    const before = (await desk.api('GET', `/api/v1/artifacts/${id}`)).body;
    desk.clock.advance(HOUR_MS);

    const tagged = await desk.api('PUT', `/api/v1/artifacts/${id}/tags`, { tags: ['pricing', 'growth', 'pricing'] });
    expect(tagged.status).toBe(200);
    expect(tagged.body.tags).toEqual(['growth', 'pricing']);
    const pinned = await desk.api('POST', `/api/v1/artifacts/${id}/pin`, { pinned: true });
    expect(pinned.body.pinned).toBe(true);
    expect((await desk.api('POST', `/api/v1/artifacts/${id}/reaction`, { emoji: '👍' })).status).toBe(200);

    const after = (await desk.api('GET', `/api/v1/artifacts/${id}`)).body;
    expect(after).toMatchObject({ readyAt: before.readyAt, decidedAt: null, status: 'ready', approvalAgeHours: 31, approvalAttention: 'watch', pinned: true });
    const kinds = (await desk.services.db.selectFrom('activity').select('kind').where('entityId', '=', id).orderBy('createdAt').execute()).map((r) => r.kind);
    expect(kinds).toEqual(['artifact.tags_changed', 'artifact.pinned', 'artifact.reaction_added']);

    // Decided: decidedAt is stamped once; later edits keep both clocks.
    const approved = await desk.api('POST', `/api/v1/artifacts/${id}/approve`, {});
    expect(approved.body).toMatchObject({ status: 'approved', readyAt: before.readyAt, decidedAt: desk.clock.now().toISOString(), approvalAttention: null });
    desk.clock.advance(HOUR_MS);
    await desk.api('PUT', `/api/v1/artifacts/${id}/tags`, { tags: [] });
    await desk.api('POST', `/api/v1/artifacts/${id}/pin`, { pinned: false });
    expect((await desk.api('GET', `/api/v1/artifacts/${id}`)).body).toMatchObject({ readyAt: before.readyAt, decidedAt: approved.body.decidedAt, tags: [], pinned: false });
  });
});

describe('decisions', () => {
  it('bulk approve_all decides only ready outputs, stamps decidedAt, and logs and emits one per output', async () => {
    const { desk } = shared;
    await waiting('art_r1', 5 * HOUR_MS);
    await waiting('art_r2', 3 * HOUR_MS);
    await decided('art_old', 10 * HOUR_MS, HOUR_MS, 'archived');
    const oldDecidedAt = ago(10 * HOUR_MS);
    // Read first: the queue's kept reads must not outlive the decision.
    expect(ids((await desk.api('GET', '/api/v1/artifacts')).body)).toEqual(['art_r1', 'art_r2']);

    const res = await desk.api('POST', '/api/v1/artifacts/bulk', { action: 'approve_all' });
    expect(res.status).toBe(200);
    const now = desk.clock.now().toISOString();
    expect(res.body).toEqual({ action: 'approve_all', status: 'approved', decided: 2, artifactIds: ['art_r1', 'art_r2'], decidedAt: now });
    const rows = await desk.services.db.selectFrom('artifacts').select(['id', 'status', 'decidedAt']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'art_old', status: 'archived', decidedAt: oldDecidedAt },
      { id: 'art_r1', status: 'approved', decidedAt: now },
      { id: 'art_r2', status: 'approved', decidedAt: now },
    ]);
    const events = await desk.services.db.selectFrom('outboxEvents').select(['event', 'payload']).where('event', 'like', 'artifact.%').execute();
    expect(events.map((e) => e.event)).toEqual(['artifact.approved', 'artifact.approved']);
    expect(JSON.parse(events[0].payload).data).toMatchObject({ artifactId: 'art_r1', waitHours: 5, via: 'bulk', decidedAt: now });
    expect(await desk.services.db.selectFrom('activity').select('entityId').where('kind', '=', 'artifact.approved').execute()).toHaveLength(2);
    const queue = (await desk.api('GET', '/api/v1/artifacts')).body;
    expect(queue.artifacts).toEqual([]);
    expect(queue.approvalThroughput.last7Days).toMatchObject({ decisions: 3, approved: 2, archived: 1 });

    // Nothing left ready: archive_all decides nothing.
    expect((await desk.api('POST', '/api/v1/artifacts/bulk', { action: 'archive_all' })).body).toMatchObject({ decided: 0, artifactIds: [] });
  });

  it('archives one ready output and answers 409 for a decided one, changing nothing', async () => {
    const { desk } = shared;
    await members();
    await waiting('art_one', HOUR_MS);
    const res = await desk.api('POST', '/api/v1/artifacts/art_one/archive', { asUserId: 'usr_bob' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'archived', decidedAt: desk.clock.now().toISOString() });
    const act = await desk.services.db.selectFrom('activity').select(['kind', 'actorUserId']).where('entityId', '=', 'art_one').execute();
    expect(act).toEqual([{ kind: 'artifact.archived', actorUserId: 'usr_bob' }]);
    desk.clock.advance(HOUR_MS);
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/artifacts/art_one/approve', body: {} }, { status: 409, error: 'artifact_decided' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/artifacts/art_one/archive', body: {} }, { status: 409, error: 'artifact_decided' });
    await waiting('art_two', HOUR_MS);
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/artifacts/art_two/approve', body: { asUserId: 'usr_vic' } }, { field: 'asUserId', error: 'role_not_permitted' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/artifacts/art_missing/approve', body: {} }, { status: 404, error: 'artifact_not_found' });
  });

  it('GET /decisions lists the window’s non-brief decisions, newest first, with a limit', async () => {
    const { desk } = shared;
    await decided('art_in1', 2 * DAY_MS, HOUR_MS);
    await decided('art_in2', 1 * DAY_MS, 2 * HOUR_MS, 'archived');
    await decided('art_brief', HOUR_MS, HOUR_MS, 'approved', { kind: 'brief' });
    await decided('art_out', 31 * DAY_MS, HOUR_MS);
    await waiting('art_ready', HOUR_MS);

    const res = await desk.api('GET', '/api/v1/decisions');
    expect(res.status).toBe(200);
    expect(res.body.windowDays).toBe(30);
    expect(res.body.decisions.map((d: { artifactId: string }) => d.artifactId)).toEqual(['art_in2', 'art_in1']);
    expect(res.body.decisions[0]).toMatchObject({ status: 'archived', waitHours: 2, kind: 'report' });
    const one = await desk.api('GET', '/api/v1/decisions?windowDays=3&limit=1');
    expect(one.body.decisions.map((d: { artifactId: string }) => d.artifactId)).toEqual(['art_in2']);
    const next = await desk.api('GET', `/api/v1/decisions?windowDays=3&limit=1&cursor=${one.body.nextCursor}`);
    expect(next.body).toMatchObject({ decisions: [{ artifactId: 'art_in1' }], nextCursor: null });
    expect((await desk.api('GET', '/api/v1/decisions?windowDays=40')).body.decisions).toHaveLength(3);
  });

  it('exports approved and archived non-brief outputs as CSV and JSON, capped at 5000 rows', async () => {
    const { desk } = shared;
    await decided('art_q', HOUR_MS, HOUR_MS, 'approved', { title: 'Say "hi", then =SUM(A1)', tags: ['growth'] });
    await decided('art_brief', HOUR_MS, HOUR_MS, 'approved', { kind: 'brief' });
    const small = await desk.api('GET', '/api/v1/workspace/decisions-export');
    expect(small.status).toBe(200);
    expect(small.headers.get('content-type')).toContain('text/csv');
    const lines = (small.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('artifactId,title,kind,status,taskId,taskTitle,reviewOwnerId,reviewOwnerName,tags,readyAt,decidedAt,waitHours');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(`art_q,"Say ""hi"", then =SUM(A1)",report,approved,,,,,growth,${ago(2 * HOUR_MS)},${ago(HOUR_MS)},1`);

    const at = ago(HOUR_MS);
    const many = Array.from({ length: 5000 }, (_, i) => ({ id: `art_m${String(i).padStart(4, '0')}`, version: 1, kind: 'report' as const, title: 't', content: '', status: 'archived' as const, readyAt: at, createdAt: at, updatedAt: at, decidedAt: at }));
    for (let i = 0; i < many.length; i += 500) await desk.services.db.insertInto('artifacts').values(many.slice(i, i + 500)).execute();
    const json = await desk.api('GET', '/api/v1/workspace/decisions-export?format=json');
    expect(json.body).toMatchObject({ total: 5001, capped: true });
    expect(json.body.rows).toHaveLength(5000);
    expect(json.body.rows.some((r: { artifactId: string }) => r.artifactId === 'art_brief')).toBe(false);
    const csv = await desk.api('GET', '/api/v1/workspace/decisions-export?format=csv');
    expect((csv.body as string).trim().split('\r\n')).toHaveLength(5001);
  });
});

describe('rejected requests change nothing', () => {
  it.each([
    ['/api/v1/artifacts?attention=late', 'attention'],
    ['/api/v1/artifacts?status=approved&attention=fresh', 'attention'],
    ['/api/v1/artifacts?reviewer=someone', 'reviewer'],
    ['/api/v1/artifacts?reviewerId=usr_nobody', 'reviewerId'],
    ['/api/v1/artifacts?sort=newest', 'sort'],
    ['/api/v1/decisions?windowDays=0', 'windowDays'],
    ['/api/v1/decisions?limit=101', 'limit'],
    ['/api/v1/workspace/decisions-export?format=xml', 'format'],
  ])('GET %s names %s', async (path, field) => {
    await expectRejectedUnchanged(shared.desk, { method: 'GET', path }, { field });
  });

  it('refuses a bad bulk action, bad tags and a non-boolean pin', async () => {
    const { desk } = shared;
    await waiting('art_z', HOUR_MS);
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/artifacts/bulk', body: { action: 'delete_all' } }, { field: 'action' });
    await expectRejectedUnchanged(desk, { method: 'PUT', path: '/api/v1/artifacts/art_z/tags', body: { tags: ['Not Valid'] } }, { field: 'tags[0]' });
    await expectRejectedUnchanged(desk, { method: 'PUT', path: '/api/v1/artifacts/art_z/tags', body: { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) } }, { field: 'tags' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/artifacts/art_z/pin', body: { pinned: 'yes' } }, { field: 'pinned' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/artifacts/art_missing/pin', body: { pinned: true } }, { status: 404 });
  });
});
