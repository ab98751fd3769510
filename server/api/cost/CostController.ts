import { Controller, Get, Path, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { AssigneeCostList, AssigneeCostTrajectory, CostToday, SourceCostList, TagCostList, TagCostTrajectory } from '../../domain/cost/cost-views';
import type { Services } from '../../services';

/**
 * Where the money goes. Every cycle's cost is recorded per workspace-timezone day (integer
 * micro-USD) for the workspace, each task, source (a task's cost split equally across its
 * sources), tag (a task's full cost to every tag; `untagged` when none) and assignee
 * (`__unassigned__` when none). Trajectories read those daily buckets, zero-filled, oldest first,
 * today last. The breakdowns (by assignee, source, tag) sum the tasks' running totals, so
 * `includeDone` can choose which tasks count: false (default) counts open tasks (queued,
 * in_progress, needs_input); true also done and archived ones. Cents are whole US cents (rounded);
 * `estimatedCostUsd` is USD with 6 decimals.
 */
@Route('api/v1/cost')
@Tags('Cost')
@Security('bearer')
export class CostController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Today at a glance: spend today, yesterday and the 7-day baseline (average of the 7 days before
   * today) in cents, a 7-day daily sparkline, the daily cost cap (cents) with today's share of it
   * and whether it was reached (the loop then stops: scheduled cycles are skipped, Run now is
   * refused), and today's spend per assignee.
   */
  @Get('today')
  public async getCostToday(): Promise<CostToday> {
    return this.s.cost.today();
  }

  /**
   * Cost per assignee: each counted task's full cost to its assignee, the unassigned bucket as
   * `__unassigned__` (displayName `Unassigned`). Most expensive first; groups without cost are left out.
   * @param limit rows
   * @isInt limit must be an integer
   * @param includeDone also count done and archived tasks (default false: open tasks only)
   * @param trajectoryDays when given, each row carries `trajectory7d`: its daily spend in cents over this many workspace days
   * @isInt trajectoryDays must be an integer
   */
  @Get('by-assignee')
  @Response<ErrorBody>('422', 'limit or trajectoryDays is out of bounds')
  public async getCostByAssignee(@Query() limit = 10, @Query() includeDone = false, @Query() trajectoryDays?: number): Promise<AssigneeCostList> {
    return this.s.cost.byAssignee({ limit, includeDone, trajectoryDays });
  }

  /**
   * Daily spend of one assignee's queue, as the cycles recorded it (every task assigned to them at
   * the time), zero-filled. Use the literal `__unassigned__` for tasks without an assignee. A
   * removed member is still answered; an id that names no member is a 404 `member_not_found`.
   * @param assigneeId a member's user id, or `__unassigned__`
   * @param days window in workspace days, today included
   * @isInt days must be an integer
   */
  @Get('by-assignee/{assigneeId}/trajectory')
  @Response<ErrorBody>('404', 'no member has this id')
  @Response<ErrorBody>('422', 'days is out of bounds')
  public async getAssigneeCostTrajectory(@Path() assigneeId: string, @Query() days = 7): Promise<AssigneeCostTrajectory> {
    return this.s.cost.assigneeTrajectory(assigneeId, days);
  }

  /**
   * Cost per source: each counted task's cost split equally across its originating sources (the
   * distinct sources of the signals it was built from; integer micro-USD, the first sources by id
   * take the remainder, so a task's shares sum to its cost exactly). Tasks without a source are in
   * no row (`withoutSourceEstimatedCostUsd`). Most expensive first; sources without cost are left out.
   * @param limit rows
   * @isInt limit must be an integer
   * @param includeDone also count done and archived tasks (default false: open tasks only)
   */
  @Get('by-source')
  @Response<ErrorBody>('422', 'limit is out of bounds')
  public async getCostBySource(@Query() limit = 10, @Query() includeDone = false): Promise<SourceCostList> {
    return this.s.cost.bySource({ limit, includeDone });
  }

  /**
   * Cost per tag: each counted task contributes its full cost to every tag it carries; tasks
   * without tags to `untagged`. Most expensive first; tags without cost are left out.
   * @param limit rows
   * @isInt limit must be an integer
   * @param includeDone also count done and archived tasks (default false: open tasks only)
   * @param trajectoryDays when given, each row carries `trajectory7d`: its daily spend in cents over this many workspace days
   * @isInt trajectoryDays must be an integer
   */
  @Get('by-tag')
  @Response<ErrorBody>('422', 'limit or trajectoryDays is out of bounds')
  public async getCostByTag(@Query() limit = 10, @Query() includeDone = false, @Query() trajectoryDays?: number): Promise<TagCostList> {
    return this.s.cost.byTag({ limit, includeDone, trajectoryDays });
  }

  /**
   * Daily spend of one tag, as the cycles recorded it, zero-filled (a tag no task ever carried
   * answers zeros). Use the literal `untagged` for tasks without tags.
   * @param tag a tag (lowercase letters and digits joined by hyphens; anything else is a 422 naming `tag`), or `untagged`
   * @param days window in workspace days, today included
   * @isInt days must be an integer
   */
  @Get('by-tag/{tag}/trajectory')
  @Response<ErrorBody>('422', 'tag is malformed or days is out of bounds')
  public async getTagCostTrajectory(@Path() tag: string, @Query() days = 7): Promise<TagCostTrajectory> {
    return this.s.cost.tagTrajectory(tag, days);
  }
}
