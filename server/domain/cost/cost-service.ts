import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import { notFound } from '../../core/errors';
import { lastDays, type Day } from '../../core/workspace-time';
import { checkTag } from '../workspace/rules';
import type { WorkspaceService } from '../workspace/workspace-service';
import { assigneeGroups, assigneeNames, countedStatuses, groupUsd, sourceGroups, tagGroups, type GroupTotals } from './cost-breakdowns';
import { buildCostExport, buildCostTable, type CostExportTable, type StreamedCostExport, type StreamedCostTable } from './cost-export';
import { readCostSeries, readKeySeries, seriesMicro, toCents, toPoints } from './cost-series';
import type {
  AssigneeCost,
  AssigneeCostList,
  AssigneeCostTrajectory,
  AssigneeToday,
  CostToday,
  SourceCostList,
  SourceCostTrajectory,
  TagCostList,
  TagCostTrajectory,
} from './cost-views';
import {
  BASELINE_DAYS,
  capPercent,
  checkCostParam,
  COST_BREAKDOWN_LIMIT,
  COST_EXPORT_DAILY_DAYS,
  COST_TRAJECTORY_DAYS,
  microToCents,
  microToUsd,
  SPARKLINE_DAYS,
  UNASSIGNED_KEY,
  UNTAGGED_KEY,
  WORKSPACE_KEY,
  type CostDimension,
} from './rules';

export interface CostDeps {
  db: Db;
  clock: Clock;
  workspace: WorkspaceService;
  /** The loop's cap state (loop-service: today's workspace spend against dailyCostCapUsdCents), read, never recomputed here. */
  capState: () => Promise<{ capped: boolean }>;
}

interface BreakdownQuery {
  limit?: number;
  includeDone?: boolean;
}

/**
 * The read half of cost guardrails: today against the cap, breakdowns by assignee, source and tag,
 * trajectories (all through the one series reader, cost-series.ts), task cost and the top tasks,
 * and the cost export. Reads only: the ledger (cost-ledger.ts) writes what is read here.
 */
export class CostService {
  constructor(private readonly d: CostDeps) {}

  async today(): Promise<CostToday> {
    const { db } = this.d;
    const { timezone, dailyCostCapUsdCents: capCents } = await this.d.workspace.profile();
    // The 7 days before today (the baseline) and today: one read of the workspace bucket.
    const window = await this.window(BASELINE_DAYS + 1);
    const today = window[window.length - 1];
    const series = await readKeySeries(db, 'workspace', WORKSPACE_KEY, window);
    const todayMicro = series[series.length - 1].costMicroUsd;
    const baselineMicro = seriesMicro(series.slice(0, BASELINE_DAYS)) / BASELINE_DAYS;
    const sparkline = series.slice(-SPARKLINE_DAYS).map((d) => ({ date: d.day, cents: microToCents(d.costMicroUsd) }));
    const [cap, byAssignee] = await Promise.all([this.d.capState(), this.assigneesOn(today)]);
    return {
      date: today,
      timezone,
      todayCents: microToCents(todayMicro),
      todayEstimatedCostUsd: microToUsd(todayMicro),
      yesterdayCents: microToCents(series[series.length - 2].costMicroUsd),
      baselineCents: microToCents(baselineMicro),
      sparkline,
      dailyCostCap: capCents,
      capPercent: capPercent(todayMicro, capCents),
      capReached: cap.capped,
      byAssignee,
    };
  }

  async byAssignee(query: BreakdownQuery & { trajectoryDays?: number } = {}): Promise<AssigneeCostList> {
    const { limit, includeDone } = this.breakdownParams(query);
    const trajectoryDays = query.trajectoryDays === undefined ? null : checkCostParam('trajectoryDays', query.trajectoryDays, COST_TRAJECTORY_DAYS);
    const { db } = this.d;
    const groups = await assigneeGroups(db, countedStatuses(includeDone));
    const shown = groups.slice(0, limit);
    const names = await assigneeNames(db, shown.map((g) => g.key));
    const trajectories = await this.trajectories('assignee', shown, trajectoryDays);
    const assignees = shown.map((g): AssigneeCost => {
      const who = names.get(g.key) ?? { displayName: g.key, removed: false };
      return {
        assigneeId: g.key,
        displayName: who.displayName,
        unassigned: g.key === UNASSIGNED_KEY,
        removed: who.removed,
        ...figures(g),
        sessionCount: g.sessionCount,
        ...(trajectories ? { trajectory7d: trajectories.get(g.key) ?? [] } : {}),
      };
    });
    return { includeDone, trajectoryDays, totalEstimatedCostUsd: microToUsd(sum(groups)), assignees };
  }

  async bySource(query: BreakdownQuery = {}): Promise<SourceCostList> {
    const { limit, includeDone } = this.breakdownParams(query);
    const { db } = this.d;
    const statuses = countedStatuses(includeDone);
    const [groups, all] = await Promise.all([sourceGroups(db, statuses), assigneeGroups(db, statuses)]);
    const shown = groups.slice(0, limit);
    const ids = shown.map((g) => g.key);
    const sources = ids.length ? await db.selectFrom('sources').select(['id', 'label', 'type', 'status']).where('id', 'in', ids).execute() : [];
    const byId = new Map(sources.map((s) => [s.id, s]));
    const withSource = sum(groups);
    return {
      includeDone,
      totalEstimatedCostUsd: microToUsd(withSource),
      // Every counted task is in exactly one assignee group: their sum is the counted total.
      withoutSourceEstimatedCostUsd: microToUsd(Math.max(0, sum(all) - withSource)),
      sources: shown.flatMap((g) => {
        const s = byId.get(g.key);
        return s ? [{ sourceId: s.id, label: s.label, type: s.type, status: s.status, ...figures(g) }] : [];
      }),
    };
  }

  async byTag(query: BreakdownQuery & { trajectoryDays?: number } = {}): Promise<TagCostList> {
    const { limit, includeDone } = this.breakdownParams(query);
    const trajectoryDays = query.trajectoryDays === undefined ? null : checkCostParam('trajectoryDays', query.trajectoryDays, COST_TRAJECTORY_DAYS);
    const shown = (await tagGroups(this.d.db, countedStatuses(includeDone))).slice(0, limit);
    const trajectories = await this.trajectories('tag', shown, trajectoryDays);
    return {
      includeDone,
      trajectoryDays,
      tags: shown.map((g) => ({
        tag: g.key,
        untagged: g.key === UNTAGGED_KEY,
        ...figures(g),
        sessionCount: g.sessionCount,
        ...(trajectories ? { trajectory7d: trajectories.get(g.key) ?? [] } : {}),
      })),
    };
  }

  async assigneeTrajectory(assigneeId: string, daysIn?: number): Promise<AssigneeCostTrajectory> {
    const days = checkCostParam('days', daysIn, COST_TRAJECTORY_DAYS);
    if (assigneeId !== UNASSIGNED_KEY) {
      const user = await this.d.db.selectFrom('users').select('id').where('id', '=', assigneeId).executeTakeFirst();
      if (!user) throw notFound('member', assigneeId);
    }
    return { assigneeId, days, points: await this.points('assignee', assigneeId, days) };
  }

  async tagTrajectory(tagIn: string, daysIn?: number): Promise<TagCostTrajectory> {
    const tag = tagIn === UNTAGGED_KEY ? tagIn : checkTag(tagIn, 'tag');
    const days = checkCostParam('days', daysIn, COST_TRAJECTORY_DAYS);
    return { tag, days, points: await this.points('tag', tag, days) };
  }

  async sourceTrajectory(sourceId: string, daysIn?: number): Promise<SourceCostTrajectory> {
    const days = checkCostParam('days', daysIn, COST_TRAJECTORY_DAYS);
    const source = await this.d.db.selectFrom('sources').select('id').where('id', '=', sourceId).executeTakeFirst();
    if (!source) throw notFound('source', sourceId);
    return { sourceId, days, points: await this.points('source', sourceId, days) };
  }

  /** GET /workspace/cost-export's four tables as one JSON; the per-task rows are read while the answer is written (cost-export.ts). */
  async exportData(): Promise<StreamedCostExport> {
    return buildCostExport(this.d.db, await this.window(COST_EXPORT_DAILY_DAYS));
  }

  /** One table of the cost export (each CSV holds one). */
  async exportTable(table: CostExportTable): Promise<StreamedCostTable> {
    return buildCostTable(this.d.db, await this.window(COST_EXPORT_DAILY_DAYS), table);
  }

  /** Today's spend per assignee key: the members (removed ones too) and the unassigned bucket, read by primary key. */
  private async assigneesOn(day: Day): Promise<AssigneeToday[]> {
    const { db } = this.d;
    const users = await db.selectFrom('users').select('id').execute();
    const keys = [...users.map((u) => u.id), UNASSIGNED_KEY];
    const series = await readCostSeries(db, 'assignee', keys, [day]);
    const spent = keys.flatMap((key) => {
      const d = series.get(key)?.[0];
      return d && (d.costMicroUsd > 0 || d.inputTokens + d.outputTokens > 0) ? [{ key, micro: d.costMicroUsd }] : [];
    });
    spent.sort((a, b) => b.micro - a.micro || (a.key < b.key ? -1 : 1));
    const names = await assigneeNames(db, spent.map((s) => s.key));
    return spent.map((s) => ({
      assigneeId: s.key,
      displayName: names.get(s.key)?.displayName ?? s.key,
      unassigned: s.key === UNASSIGNED_KEY,
      todayCents: microToCents(s.micro),
      todayEstimatedCostUsd: microToUsd(s.micro),
    }));
  }

  private breakdownParams(query: BreakdownQuery): { limit: number; includeDone: boolean } {
    return { limit: checkCostParam('limit', query.limit, COST_BREAKDOWN_LIMIT), includeDone: query.includeDone ?? false };
  }

  private async trajectories(dimension: CostDimension, groups: readonly GroupTotals[], days: number | null): Promise<Map<string, number[]> | null> {
    if (days === null) return null;
    const series = await readCostSeries(this.d.db, dimension, groups.map((g) => g.key), await this.window(days));
    return new Map([...series].map(([key, s]) => [key, toCents(s)]));
  }

  private async points(dimension: CostDimension, key: string, days: number) {
    return toPoints(await readKeySeries(this.d.db, dimension, key, await this.window(days)));
  }

  /** The last `days` workspace days, today last. */
  private async window(days: number): Promise<Day[]> {
    const { timezone } = await this.d.workspace.profile();
    return lastDays(this.d.clock.now(), timezone, days);
  }
}

const sum = (groups: readonly GroupTotals[]) => groups.reduce((a, g) => a + g.costMicroUsd, 0);

const figures = (g: GroupTotals) => ({ taskCount: g.taskCount, totalInputTokens: g.inputTokens, totalOutputTokens: g.outputTokens, estimatedCostUsd: groupUsd(g) });
