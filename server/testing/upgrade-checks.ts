import { expect } from 'vitest';
import { IDS, FIXTURE_TOKEN } from '../../db/migrations/upgrade-fixtures/ids';
import type { FixtureTables } from '../../db/migrations/upgrade-fixtures/types';
import { EDITED_ARTIFACT } from '../../db/migrations/upgrade-fixtures/0021_review_step';
import type { ApiResponse, TestDesk } from './desk';

/**
 * What db/migrations/upgrade-fixtures/upgrades.test.ts reads through the API of a desk started on an
 * upgraded fixture: each kind of row by the version that brought it (`apiChecks`), with the values
 * the fixture wrote, and on every version the lists, search, exports and a cycle (`everyVersionChecks`).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field and each one asserted
type Body = any;

async function get(desk: TestDesk, path: string): Promise<Body> {
  const res: ApiResponse = await desk.api('GET', path);
  expect(res.status, `GET ${path}: ${JSON.stringify(res.body).slice(0, 400)}`).toBe(200);
  return res.body;
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

export interface ApiCheck {
  /** The migration that brought these rows: the check runs on fixtures of that version and later. */
  since: string;
  run(desk: TestDesk, before: FixtureTables): Promise<void>;
}

export const apiChecks: ApiCheck[] = [
  {
    since: '0001_foundation',
    async run(desk) {
      expect(await get(desk, '/api/v1/workspace')).toMatchObject({
        id: IDS.workspace,
        name: 'Upgrade Desk',
        plan: 'pro',
        timezone: 'Europe/Paris',
        ownerUserId: IDS.owner,
        loopState: 'on',
        loopIntervalMinutes: 45,
        focusTags: ['launch', 'pricing'],
        staleTaskAutoArchiveDays: 30,
        staleMemoryAutoArchiveDays: 90,
        taskCostSpikeAction: 'pause',
        sourceChronicThresholdDays: 4,
        dailyCostCapUsdCents: 500,
        digestEmail: 'owner@example.com',
        createdAt: '2026-03-01T08:00:00.000Z',
      });
      const { members } = await get(desk, '/api/v1/workspace/members');
      expect(members).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: IDS.owner, name: 'Olive Owner', email: 'owner@example.com', role: 'owner' }),
          expect.objectContaining({ id: IDS.admin, name: 'Ada Admin', email: 'ada@example.com', role: 'admin' }),
          expect.objectContaining({ id: IDS.editor, name: 'Eddie Editor', email: null, role: 'editor' }),
        ]),
      );
      const history = await get(desk, '/api/v1/workspace/focus-history?sinceDays=30');
      expect(history.shifts.map((s: { id: string; tags: string[] }) => [s.id, s.tags])).toEqual(
        expect.arrayContaining([
          ['fcs_01JNQFX0000000000000000001', ['launch']],
          ['fcs_01JNQFX0000000000000000002', ['launch', 'pricing']],
        ]),
      );
      const { activities } = await get(desk, '/api/v1/activity?limit=100');
      expect(activities).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'act_01JNQFX0000000000000000001', detail: 'Loop interval set to 45 minutes' })]));
      expect((await desk.services.scheduler.states()).find((s) => s.name === 'backups.daily')).toMatchObject({ lastRunAt: '2026-03-09T23:00:00.000Z', lastError: 'disk busy', runCount: 9 });
    },
  },
  {
    since: '0002_signals_sources',
    async run(desk) {
      expect(await get(desk, `/api/v1/signals/${IDS.signal}`)).toMatchObject({
        id: IDS.signal,
        kind: 'news',
        priority: 'high',
        title: 'Competitor launched usage pricing',
        detail: 'Usage pricing with a free tier, announced on their blog.',
        sourceUrl: 'https://example.com/pricing',
        sourceId: IDS.feedSource,
        sourceLabel: 'Competitor blog',
        pinned: true,
        createdAt: '2026-03-04T09:00:00.000Z',
      });
      expect(await get(desk, `/api/v1/sources/${IDS.feedSource}`)).toMatchObject({
        type: 'rss',
        label: 'Competitor blog',
        url: 'http://127.0.0.1:9/feed.xml',
        notes: 'Pricing changes show up here first',
        status: 'connected',
        pollIntervalMinutes: 120,
        includeKeywords: ['pricing'],
        excludeKeywords: ['hiring'],
        lastSyncedAt: '2026-03-09T10:00:00.000Z',
      });
      expect(await get(desk, `/api/v1/sources/${IDS.manualSource}`)).toMatchObject({
        status: 'error',
        pausedUntilAt: '2026-03-20T09:00:00.000Z',
        lastErrorMessage: 'HTTP 503 from the server',
        consecutiveFailures: 3,
        quietnessAckedAt: '2026-03-06T09:00:00.000Z',
      });
      // The stored answer of a keyed webhook delivery is replayed: no second signal.
      const count = async () => (await get(desk, '/api/v1/signals?limit=100')).signals.length;
      const signals = await count();
      const replay = await fetch(`${desk.url}/api/webhooks/signals/${FIXTURE_TOKEN}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'delivery-42' },
        body: JSON.stringify({ title: 'Checkout latency spike', detail: 'again' }),
      });
      expect(replay.status).toBe(201);
      expect(await count()).toBe(signals);
    },
  },
  {
    since: '0003_signal_external_id',
    async run(desk) {
      expect(await get(desk, `/api/v1/signals/${IDS.webhookSignal}`)).toMatchObject({ externalId: 'pagerduty-incident-7', priority: 'urgent', kind: 'alert' });
    },
  },
  {
    since: '0006_ingest_tokens',
    async run(desk) {
      const { ingestTokens } = await get(desk, `/api/v1/sources/${IDS.manualSource}/ingest-tokens`);
      expect(ingestTokens).toEqual([expect.objectContaining({ label: 'Zapier', tokenHint: 'dsk_in…9f2c', lastUsedAt: '2026-03-09T09:00:00.000Z' })]);
    },
  },
  {
    since: '0020_mcp_tokens',
    async run(desk) {
      // Active tokens only: the revoked one keeps its row (its hash is never reused) but is not listed.
      const { mcpTokens } = await get(desk, '/api/v1/integrations/mcp-tokens');
      expect(mcpTokens).toEqual([expect.objectContaining({ label: 'Claude Desktop', scope: 'write', tokenHint: 'dskm_…Zx9q', lastUsedAt: '2026-03-09T15:00:00.000Z' })]);
    },
  },
  {
    since: '0021_review_step',
    async run(desk) {
      expect(await get(desk, `/api/v1/artifacts/${IDS.artifactV2}`)).toMatchObject({ status: 'ready', supersededAt: '2026-03-09T12:00:00.000Z', supersededById: EDITED_ARTIFACT, authorKind: 'engine' });
      expect(await get(desk, `/api/v1/artifacts/${EDITED_ARTIFACT}`)).toMatchObject({ status: 'ready', version: 3, parentArtifactId: IDS.artifactV2, authorKind: 'member', authorUserId: IDS.admin });
      expect(await get(desk, `/api/v1/signals/${IDS.signal}`)).toMatchObject({ publishedAt: '2026-03-03T18:30:00.000Z' });
      expect(await get(desk, `/api/v1/runs/${IDS.run}`)).toMatchObject({ explanation: 'Grouped 2 signals into 1 task; priorities from what each item says.' });
    },
  },
  {
    since: '0008_tasks',
    async run(desk) {
      const task = await get(desk, `/api/v1/tasks/${IDS.task}`);
      expect(task).toMatchObject({
        title: 'Answer the competitor pricing move',
        summary: 'Compare their usage pricing with ours and propose a response.',
        kind: 'research',
        deliverableType: 'brief',
        priority: 'high',
        dueAt: '2026-03-14T17:00:00.000Z',
        status: 'in_progress',
        assignedToUserId: IDS.admin,
        goal: 'A one-page brief for Friday',
        context: 'Sales asked twice this week',
        pinned: true,
        blockedByTaskIds: [IDS.blockerTask],
        sourceSignalIds: [IDS.signal],
      });
      expect([...task.tags].sort()).toEqual(['launch', 'pricing']);
      expect(await get(desk, `/api/v1/tasks/${IDS.archivedTask}`)).toMatchObject({ status: 'archived', archivedBySweep: true, archivedAt: '2026-03-08T09:00:00.000Z' });
      const { notes } = await get(desk, `/api/v1/tasks/${IDS.task}/notes`);
      expect(notes).toEqual([expect.objectContaining({ text: 'Keep the free tier out of scope' })]);
      const timeline = await get(desk, `/api/v1/tasks/${IDS.task}/timeline`);
      expect(JSON.stringify(timeline.entries)).toContain('Collected their three plan pages');
      const views = await get(desk, `/api/v1/tasks/${IDS.task}/work-log-views`);
      expect(JSON.stringify(views.days)).toContain('2026-03-08');
    },
  },
  {
    since: '0009_members_templates',
    async run(desk) {
      const { members, invites } = await get(desk, '/api/v1/workspace/members');
      expect(members.find((m: { id: string }) => m.id === IDS.editor)).toMatchObject({ availability: 'away' });
      expect(ids(members)).not.toContain('usr_01JNQFX0000000000000000004');
      expect(invites).toEqual([expect.objectContaining({ email: 'new.hire@example.com', role: 'editor', invitedByUserId: IDS.owner })]);
      const { templates } = await get(desk, '/api/v1/workspace/task-templates');
      expect(templates).toEqual([expect.objectContaining({ label: 'Competitor brief', emoji: '🎯', tags: ['competitors'], usageCount: 4 })]);
      const { searches } = await get(desk, '/api/v1/workspace/shared-saved-searches');
      expect(searches).toEqual([expect.objectContaining({ name: 'Pricing signals', query: 'pricing', createdByUserId: IDS.admin })]);
    },
  },
  {
    since: '0010_task_comments',
    async run(desk) {
      const { comments } = await get(desk, `/api/v1/tasks/${IDS.task}/comments`);
      expect(comments.map((c: { id: string; parentCommentId: string | null; text: string }) => [c.id, c.parentCommentId, c.text])).toEqual([
        [IDS.comment, null, '@Ada can you check the enterprise tier?'],
        [IDS.reply, IDS.comment, 'On it, numbers by Thursday'],
      ]);
      const mentions = await get(desk, `/api/v1/mentions?userId=${IDS.admin}`);
      expect(JSON.stringify(mentions)).toContain(IDS.comment);
    },
  },
  {
    since: '0011_loop',
    async run(desk) {
      expect(await get(desk, `/api/v1/memory/${IDS.memory}`)).toMatchObject({
        kind: 'decision',
        title: 'We never discount annual plans',
        importance: 0.8,
        pinned: true,
        tags: ['pricing'],
        retrievalCount: 5,
        createdByRunId: IDS.run,
      });
      expect(await get(desk, `/api/v1/runs/${IDS.run}`)).toMatchObject({
        trigger: 'schedule',
        status: 'completed',
        model: 'gpt-4o-mini',
        inputTokens: 12000,
        outputTokens: 3400,
        estimatedCostUsd: 0.041,
        durationMs: 4200,
      });
      expect(await get(desk, `/api/v1/runs/${IDS.skippedRun}`)).toMatchObject({ status: 'skipped', skipReason: 'cost_cap_reached' });
      expect(await get(desk, `/api/v1/artifacts/${IDS.artifact}`)).toMatchObject({ title: 'Brief: usage pricing', status: 'approved', taskId: IDS.task, runId: IDS.run, tags: ['pricing'], version: 1 });
      expect(await get(desk, `/api/v1/artifacts/${IDS.artifactV2}`)).toMatchObject({ status: 'ready', parentArtifactId: IDS.artifact, version: 2 });
      const trajectory = await get(desk, `/api/v1/tasks/${IDS.task}/cost-trajectory?days=7`);
      expect(JSON.stringify(trajectory.points)).toContain('2026-03-09');
      expect(await get(desk, '/api/v1/workspace/engine')).toMatchObject({ engine: 'local', model: 'gpt-4o-mini' });
    },
  },
  {
    since: '0012_cost_guard',
    async run(desk) {
      const acks = await get(desk, '/api/v1/cost/chronic-acks');
      expect(JSON.stringify(acks)).toContain(IDS.admin);
    },
  },
  {
    since: '0013_outbound',
    async run(desk) {
      const { subscriptions } = await get(desk, '/api/v1/outbound/subscriptions');
      expect(subscriptions).toEqual([
        expect.objectContaining({ id: IDS.subscription, label: 'Team chat', active: false, disabledReason: 'failing', secretHint: 'whsec_…ZWY=', events: ['artifact.approved', 'task.created'] }),
      ]);
      const { deliveries } = await get(desk, '/api/v1/outbound/deliveries');
      expect(deliveries.map((d: { id: string }) => d.id)).toEqual(['att_01JNQFX0000000000000000002', 'att_01JNQFX0000000000000000001']);
    },
  },
  {
    since: '0015_digest',
    async run(desk) {
      expect(await get(desk, `/api/v1/workspace/dashboard-prefs?userId=${IDS.admin}`)).toMatchObject({
        collapsedPanels: ['insights'],
        digestQuietHoursStart: 22,
        activeWorkSort: 'due',
        density: 'compact',
        costPanelOrder: { task: 'name-asc', source: 'cost-asc' },
      });
      const { entries } = await get(desk, '/api/v1/workspace/digest-audit?sinceDays=30');
      expect(entries.map((e: { outcome: string; reason: string }) => [e.outcome, e.reason]).sort()).toEqual([
        ['muted', 'quiet_hours'],
        ['would_send', 'ready'],
      ]);
    },
  },
  {
    since: '0016_public',
    async run(desk) {
      expect(await get(desk, '/api/v1/workspace/badge-token')).toMatchObject({ issued: true, token: 'bdg_0123456789abcdef0123456789abcdef' });
      expect((await get(desk, '/api/v1/roadmap-votes')).totalVotes).toBe(2);
    },
  },
  {
    since: '0019_engine_budget',
    async run(desk) {
      expect((await get(desk, '/api/v1/workspace/engine')).structuredOutput).toBe('json_object');
      expect(await get(desk, `/api/v1/runs/${IDS.run}`)).toMatchObject({ budgetUsd: 5, maxOutputTokens: 4096 });
    },
  },
];

/** Lists, search, the export and a cycle, on a desk upgraded from any version. */
export async function everyVersionChecks(desk: TestDesk, _version: string, before: FixtureTables): Promise<void> {
  const count = (table: string) => before[table]?.length ?? 0;
  const list = async (path: string, key: string) => ids((await get(desk, path))[key]);
  if (count('signals') > 0) expect((await list('/api/v1/signals?limit=100', 'signals')).sort()).toEqual(before.signals.map((s) => s.id).sort());
  if (count('sources') > 0) expect((await list('/api/v1/sources?limit=100', 'sources')).sort()).toEqual(before.sources.map((s) => s.id).sort());
  if (count('tasks') > 0) expect(await list('/api/v1/tasks?limit=100', 'tasks')).toEqual(expect.arrayContaining([IDS.task, IDS.blockerTask]));
  if (count('memory') > 0) expect(await list('/api/v1/memory?limit=100', 'memory')).toEqual([IDS.memory]);
  // The queue: ready versions no newer version superseded.
  if (count('artifacts') > 0) expect(await list('/api/v1/artifacts?status=ready', 'artifacts')).toEqual(before.artifacts.filter((a) => a.status === 'ready' && !a.superseded_at).map((a) => a.id));
  if (count('runs') > 0) expect((await list('/api/v1/runs?limit=100', 'runs')).sort()).toEqual([IDS.run, IDS.skippedRun, IDS.failedRun].sort());
  expect(await list('/api/v1/activity?limit=100', 'activities')).toEqual(expect.arrayContaining(before.activity.map((a) => a.id)));

  // Search finds the upgraded rows: what the search migrations backfilled or queued.
  const found = async (q: string) => (await get(desk, `/api/v1/search?q=${encodeURIComponent(q)}`)).hits.map((h: { id?: string; ref?: string }) => h.id ?? h.ref);
  expect(await found('interval')).toContain('act_01JNQFX0000000000000000001');
  if (count('signals') > 0) expect(await found('usage pricing')).toContain(IDS.signal);
  if (count('tasks') > 0) expect(await found('competitor pricing move')).toContain(IDS.task);
  if (count('memory') > 0) expect(await found('annual plans')).toContain(IDS.memory);

  // The whole export holds every row it exports.
  const exported = await get(desk, '/api/v1/workspace/export');
  expect(exported.profile).toMatchObject({ name: 'Upgrade Desk' });
  expect(ids(exported.signals).sort()).toEqual((before.signals ?? []).map((s) => s.id).sort());
  expect(ids(exported.tasks).sort()).toEqual((before.tasks ?? []).map((t) => t.id).sort());
  expect(ids(exported.memory).sort()).toEqual((before.memory ?? []).map((m) => m.id).sort());

  // A cycle runs on the upgraded data, and a new signal is taken in and found.
  const created = await desk.api('POST', '/api/v1/signals', { kind: 'news', priority: 'normal', title: 'Upgraded desk takes signals', detail: 'marmalade' });
  expect(created.status).toBe(201);
  const cycle = await desk.api('POST', '/api/v1/runs');
  expect(cycle.status, JSON.stringify(cycle.body)).toBe(200);
  expect(cycle.body).toMatchObject({ status: 'completed', errorMessage: null });
  expect(cycle.body.read.signalIds).toContain(created.body.id);
  expect(await found('marmalade')).toContain(created.body.id);
}
