import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import { DAY_MS } from '../../core/clock';
import type { ArtifactService } from '../artifacts/artifact-service';
import type { ApprovalAttention } from '../artifacts/rules';
import type { CostService } from '../cost/cost-service';
import type { CostGuardService } from '../cost-guard/cost-guard-service';
import type { OverviewService } from '../overview/overview-service';
import type { SourceService } from '../sources/source-service';

/** What a digest reports, gathered through the other areas' services (the same figures their pages show). */
export interface DigestContent {
  /** @format date-time */
  generatedAt: string;
  /** The start of "since the last digest": the last production digest, else 24 hours back (at most 30 days). @format date-time */
  since: string;
  approvals: {
    /** @isInt */
    waiting: number;
    /** @isInt */
    fresh: number;
    /** Past watchHours, not yet overdue. @isInt */
    watch: number;
    /** @isInt */
    overdue: number;
    oldestWaitHours: number | null;
    /** The oldest waiting outputs (at most 10), most urgent first. */
    items: { id: string; title: string; taskTitle: string | null; attention: ApprovalAttention | null; ageHours: number | null; reviewOwner: string | null }[];
  };
  loop: {
    /** @isInt */
    runsCompleted: number;
    /** @isInt */
    runsFailed: number;
    /** @isInt */
    runsSkipped: number;
    /** @isInt */
    signalsReceived: number;
    /** @isInt */
    outputsMade: number;
    /** @isInt */
    approvalsDecided: number;
    /** @isInt */
    tasksCreated: number;
    /** @isInt */
    tasksDone: number;
  };
  spend: {
    /** @isInt */
    todayCents: number;
    /** @isInt */
    yesterdayCents: number;
    /** @isInt */
    baselineCents: number;
    /** @isInt */
    capCents: number | null;
    capPercent: number | null;
    capReached: boolean;
  };
  /** Spikes today (every dimension, unacknowledged first), at most 10. */
  spikes: { dimension: 'task' | 'source' | 'tag' | 'assignee' | 'memory'; label: string; todayCents: number; baselineCents: number; spikeRatio: number | null; acked: boolean }[];
  /** Feeds quiet beyond their floor and not acknowledged, at most 10. */
  quietSources: { sourceId: string; label: string; quietForDays: number }[];
}

export interface ContentDeps {
  db: Db;
  clock: Clock;
  artifacts: ArtifactService;
  overview: OverviewService;
  cost: CostService;
  costGuard: CostGuardService;
  sources: SourceService;
}

const LIST_MAX = 10;
const ATTENTION_RANK: Record<ApprovalAttention, number> = { overdue: 0, watch: 1, fresh: 2 };

/** The loop's own counts since a time that the overview does not give (runs by status, tasks created and finished). */
async function loopCounts(db: Db, since: string, until: string) {
  // A cycle the operator cancelled is their decision, not a failure: it is not counted.
  const runs = await db.selectFrom('runs').select(['status']).select((eb) => eb.fn.countAll<number>().as('n')).where('startedAt', '>=', since).where('startedAt', '<=', until).where('cancelledAt', 'is', null).groupBy('status').execute();
  const by = new Map(runs.map((r) => [r.status as string, Number(r.n)]));
  const created = await db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('createdAt', '>=', since).where('createdAt', '<=', until).executeTakeFirstOrThrow();
  // Done tasks whose last change falls in the window: the move to done touches updatedAt.
  const done = await db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'done').where('updatedAt', '>=', since).where('updatedAt', '<=', until).executeTakeFirstOrThrow();
  return { runsCompleted: by.get('completed') ?? 0, runsFailed: by.get('failed') ?? 0, runsSkipped: by.get('skipped') ?? 0, tasksCreated: Number(created.n), tasksDone: Number(done.n) };
}

/** Gathers the digest's figures now, for "since the last digest" = `lastRunAt` (or the last 24 hours). */
export async function gatherContent(d: ContentDeps, lastRunAt: string | null): Promise<DigestContent> {
  const now = d.clock.now();
  const sinceRaw = lastRunAt ?? new Date(now.getTime() - DAY_MS).toISOString();
  const [queue, news, today, quiet] = await Promise.all([
    d.artifacts.list({ status: 'ready', sort: 'oldest', limit: 50 }),
    d.overview.whatsNew(sinceRaw < now.toISOString() ? sinceRaw : undefined),
    d.cost.today(),
    d.sources.quietness(),
  ]);
  const since = news.since;
  const loop = await loopCounts(d.db, since, news.until);
  const spikeLists = await Promise.all(
    (['task', 'source', 'tag', 'assignee'] as const).map(async (dimension) => (await d.costGuard.spikeList(dimension, { limit: LIST_MAX })).spikes.map((s) => ({ dimension, s }))),
  );
  const memorySpikes = (await d.costGuard.memorySpikeList({ limit: LIST_MAX })).spikes.map((s) => ({ dimension: 'memory' as const, s }));
  const spikes = [...spikeLists.flat(), ...memorySpikes]
    .map(({ dimension, s }) => ({ dimension, label: s.label, todayCents: s.todayCents, baselineCents: s.baselineCents, spikeRatio: s.spikeRatio, acked: s.ackedAt !== null }))
    .sort((a, b) => Number(a.acked) - Number(b.acked) || b.todayCents - a.todayCents)
    .slice(0, LIST_MAX);
  const aging = queue.approvalAging;
  const items = queue.rows
    .map((r) => ({ id: r.id, title: r.title, taskTitle: r.taskTitle, attention: r.approvalAttention, ageHours: r.approvalAgeHours, reviewOwner: r.reviewOwner?.name ?? null }))
    .sort((a, b) => ATTENTION_RANK[a.attention ?? 'fresh'] - ATTENTION_RANK[b.attention ?? 'fresh'] || (b.ageHours ?? 0) - (a.ageHours ?? 0))
    .slice(0, LIST_MAX);
  return {
    generatedAt: now.toISOString(),
    since,
    approvals: { waiting: aging.waiting, fresh: aging.fresh, watch: aging.pastWatch - aging.pastOverdue, overdue: aging.pastOverdue, oldestWaitHours: aging.oldestWaitHours, items },
    loop: { ...loop, signalsReceived: news.counts.signals, outputsMade: news.counts.artifacts, approvalsDecided: news.counts.approvals },
    spend: { todayCents: today.todayCents, yesterdayCents: today.yesterdayCents, baselineCents: today.baselineCents, capCents: today.dailyCostCap, capPercent: today.capPercent, capReached: today.capReached },
    spikes,
    quietSources: quiet.sources.filter((s) => !s.acked).slice(0, LIST_MAX).map((s) => ({ sourceId: s.sourceId, label: s.label, quietForDays: s.quietForDays })),
  };
}

/** Production qualifies whenever approvals wait, even with no new signals; else only when the loop did something since the last digest. */
export function hasSomethingToReport(c: DigestContent): boolean {
  const l = c.loop;
  return c.approvals.waiting > 0 || l.runsCompleted + l.runsFailed + l.signalsReceived + l.outputsMade + l.approvalsDecided + l.tasksCreated + l.tasksDone > 0 || c.spikes.length > 0;
}
