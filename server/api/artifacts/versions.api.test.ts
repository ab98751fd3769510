import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../core/clock';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { scriptedEngine } from '../../testing/fixtures/loop';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

/**
 * Versions of an output (issue 30): a newer version supersedes the one waiting (the queue lists one
 * entry per output, its newest version), an operator's edit is a new version authored by them,
 * and a decided output is reopened as a new ready version, the decided one left as it was.
 */

// Each cycle founds a task from each new signal and drafts one version of every workable task's output.
const drafter = scriptedEngine((input) => ({
  newTasks: input.newSignals.map((s) => ({
    ref: `new:${s.id}`,
    title: `Answer: ${s.title}`,
    summary: 'A customer asked.',
    kind: 'outreach' as const,
    deliverableType: 'email' as const,
    priority: 'normal' as const,
    tags: [],
    signalIds: [s.id],
  })),
  artifacts: [
    ...input.newSignals.map((s) => ({ taskRef: `new:${s.id}`, kind: 'email' as const, title: 'Reply draft', content: 'Hello,\n\nversion one.', signalIds: [s.id], memoryIds: [] })),
    ...input.tasks.filter((t) => t.workable).map((t) => ({ taskRef: t.id, kind: 'email' as const, title: 'Reply draft', content: 'Hello,\n\nversion two.', signalIds: [], memoryIds: [] })),
  ],
  triagedSignalIds: input.newSignals.map((s) => s.id),
}));

const shared = useTestDesk({ engineFor: () => drafter });

async function queue(): Promise<{ id: string; version: number }[]> {
  const res = await shared.desk.api('GET', '/api/v1/artifacts?status=ready');
  expect(res.status).toBe(200);
  return res.body.artifacts;
}

/** Two cycles over one signal: v1, then v2 of the same output. */
async function twoVersions(): Promise<{ v1: string; v2: string; taskId: string }> {
  const { desk } = shared;
  const posted = await desk.api('POST', '/api/v1/signals', { title: 'Refund for order 1182?', kind: 'message', priority: 'normal', detail: 'Sam asks about a refund.' });
  expect(posted.status, JSON.stringify(posted.body)).toBe(201);
  expect((await desk.api('POST', '/api/v1/runs')).body.status).toBe('completed');
  const [first] = await queue();
  desk.clock.advance(HOUR_MS);
  expect((await desk.api('POST', '/api/v1/runs')).body.status).toBe('completed');
  const v1 = (await desk.api('GET', `/api/v1/artifacts/${first.id}`)).body;
  return { v1: v1.id, v2: v1.supersededById, taskId: v1.taskId };
}

describe('versions supersede', () => {
  it('v1 leaves the queue when v2 arrives, stays in the chain, and can no longer be decided', async () => {
    const { desk } = shared;
    const { v1, v2 } = await twoVersions();
    expect(v2).toMatch(/^art_/);

    const listed = await queue();
    expect(listed.map((a) => a.id)).toEqual([v2]);
    expect(listed[0].version).toBe(2);

    const old = (await desk.api('GET', `/api/v1/artifacts/${v1}`)).body;
    expect(old).toMatchObject({ status: 'ready', supersededById: v2, supersededAt: desk.clock.now().toISOString(), approvalAttention: null, approvalAgeHours: null, authorKind: 'engine' });

    const chain = (await desk.api('GET', `/api/v1/artifacts/${v2}/versions`)).body.versions;
    expect(chain.map((v: { id: string; supersededById: string | null; authorKind: string }) => [v.id, v.supersededById, v.authorKind])).toEqual([
      [v2, null, 'engine'],
      [v1, v2, 'engine'],
    ]);

    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/artifacts/${v1}/approve`, body: {} }, { status: 409, error: 'artifact_superseded' });
    const summary = (await desk.api('GET', '/api/v1/workspace/summary')).body.artifacts;
    expect(summary).toMatchObject({ total: 2, ready: 1, superseded: 1 });

    // approve_all decides the newest version only; v1 stays as it was
    const bulk = await desk.api('POST', '/api/v1/artifacts/bulk', { action: 'approve_all' });
    expect(bulk.body).toMatchObject({ decided: 1, artifactIds: [v2] });
    expect((await desk.api('GET', `/api/v1/artifacts/${v1}`)).body).toMatchObject({ status: 'ready', decidedAt: null });
  });
});

describe('POST /artifacts/{id}/versions (edit)', () => {
  it('saves the edited body as a new version by the member, keeps the review clock, and the edit is what gets approved', async () => {
    const { desk } = shared;
    const { v2 } = await twoVersions();
    const before = (await desk.api('GET', `/api/v1/artifacts/${v2}`)).body;
    const robin = 'usr_robin';
    await addMember(desk, robin, 'Robin', 'editor');
    desk.clock.advance(10 * 60_000);

    const res = await desk.api('POST', `/api/v1/artifacts/${v2}/versions`, { content: 'Hi Sam,\n\nin my own words.', asUserId: robin });
    expect(res.status).toBe(201);
    const v3 = res.body;
    expect(v3).toMatchObject({
      status: 'ready',
      version: 3,
      parentArtifactId: v2,
      title: 'Reply draft',
      content: 'Hi Sam,\n\nin my own words.',
      kind: 'email',
      taskId: before.taskId,
      runId: null,
      authorKind: 'member',
      authorUserId: robin,
      authorName: 'Robin',
      readyAt: before.readyAt,
      supersededAt: null,
    });
    expect((await queue()).map((a) => a.id)).toEqual([v3.id]);
    expect((await desk.api('GET', `/api/v1/artifacts/${v2}`)).body.supersededById).toBe(v3.id);
    const versions = (await desk.api('GET', `/api/v1/artifacts/${v3.id}/versions`)).body.versions;
    expect(versions.map((v: { version: number; authorKind: string; authorName: string | null }) => [v.version, v.authorKind, v.authorName])).toEqual([
      [3, 'member', 'Robin'],
      [2, 'engine', null],
      [1, 'engine', null],
    ]);

    // saving the same text again writes nothing
    const same = await desk.api('POST', `/api/v1/artifacts/${v3.id}/versions`, { content: 'Hi Sam,\n\nin my own words.' });
    expect(same.status).toBe(200);
    expect(same.body.id).toBe(v3.id);

    // the older version is no longer editable; the decided one neither
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/artifacts/${v2}/versions`, body: { content: 'late' } }, { status: 409, error: 'artifact_superseded' });
    expect((await desk.api('POST', `/api/v1/artifacts/${v3.id}/approve`, {})).status).toBe(200);
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/artifacts/${v3.id}/versions`, body: { content: 'after' } }, { status: 409, error: 'artifact_decided' });
  });

  it('refuses a blank, oversized or missing body, an unknown output and a viewer, changing nothing', async () => {
    const { desk } = shared;
    const { v2 } = await twoVersions();
    const viewer = 'usr_vic';
    await addMember(desk, viewer, 'Vic', 'viewer');
    const path = `/api/v1/artifacts/${v2}/versions`;
    await expectRejectedUnchanged(desk, { method: 'POST', path, body: { content: '   ' } }, { field: 'content' });
    await expectRejectedUnchanged(desk, { method: 'POST', path, body: { content: '' } }, { field: 'content' });
    await expectRejectedUnchanged(desk, { method: 'POST', path, body: { content: 'x'.repeat(100_001) } }, { field: 'content' });
    await expectRejectedUnchanged(desk, { method: 'POST', path, body: {} }, { field: 'content' });
    await expectRejectedUnchanged(desk, { method: 'POST', path, body: { content: 'ok', title: 't'.repeat(201) } }, { field: 'title' });
    await expectRejectedUnchanged(desk, { method: 'POST', path, body: { content: 'ok', asUserId: viewer } }, { field: 'asUserId' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/artifacts/art_missing/versions', body: { content: 'ok' } }, { status: 404, error: 'artifact_not_found' });
    // the bounds themselves are accepted
    const edge = await desk.api('POST', path, { content: 'x'.repeat(100_000), title: 't'.repeat(200) });
    expect(edge.status).toBe(201);
  });
});

describe('POST /artifacts/{id}/reopen', () => {
  it('makes a new ready version from a decided output and leaves the decided one as it was', async () => {
    const { desk } = shared;
    const { v2 } = await twoVersions();
    const archived = (await desk.api('POST', `/api/v1/artifacts/${v2}/archive`, {})).body;
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/artifacts/${v2}/reopen`, body: { asUserId: 'usr_nobody' } }, { field: 'asUserId' });
    desk.clock.advance(2 * HOUR_MS);

    const res = await desk.api('POST', `/api/v1/artifacts/${v2}/reopen`, {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'ready', version: 3, parentArtifactId: v2, content: 'Hello,\n\nversion two.', authorKind: 'member', readyAt: desk.clock.now().toISOString(), decidedAt: null });
    expect((await desk.api('GET', `/api/v1/artifacts/${v2}`)).body).toMatchObject({ status: 'archived', decidedAt: archived.decidedAt, supersededAt: null });
    expect((await queue()).map((a) => a.id)).toEqual([res.body.id]);

    // a ready output cannot be reopened; an unknown one is a 404
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/artifacts/${res.body.id}/reopen`, body: {} }, { status: 409, error: 'artifact_not_decided' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/artifacts/art_missing/reopen', body: {} }, { status: 404, error: 'artifact_not_found' });
  });
});
