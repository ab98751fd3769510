import { Controller, Get, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { PersonalInbox, ReactionsSummary, TodaySnapshot, WhatsNew, WorkspaceSummary } from '../../domain/overview/overview-service';
import type { Services } from '../../services';

/** The operator's overview (the Home page): read-only figures over the whole workspace. */
@Route('api/v1/workspace')
@Tags('Overview')
@Security('bearer')
export class OverviewController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * All-time counts: signals (and those no cycle has taken in), outputs by status, approved outputs,
   * memory entries (active and archived), sources by status (and paused now), tasks by status, loop
   * cycles by outcome, and anchor times (workspace created, first and last signal, last cycle, last
   * completed cycle, last output, last decision, last task, last memory entry, last activity).
   */
  @Get('summary')
  public async getWorkspaceSummary(): Promise<WorkspaceSummary> {
    return this.s.overview.summary();
  }

  /**
   * Today at a glance, in the workspace timezone: signals received, cycles run (completed or
   * failed; skipped ones not counted), outputs made, outputs approved and spend (from the cost
   * ledger), for today and yesterday, today minus yesterday, and the 7-day baseline: the average
   * per day over the 7 workspace days before today. Also the outputs waiting now and spend against
   * the daily cost cap.
   */
  @Get('today')
  public async getWorkspaceToday(): Promise<TodaySnapshot> {
    return this.s.overview.today();
  }

  /**
   * What happened since a moment: per-kind counts with the newest 3 of each kind. `signals`:
   * received; `artifacts`: outputs made (any status); `outputs`: outputs made in the window that
   * still wait for a decision; `approvals`: outputs approved in the window; `activity`: activity-log
   * rows. The window ends now.
   * @param since ISO 8601 time (or a date: the start of that workspace day). Default: 24 hours ago.
   * A time further back than 30 workspace days is clamped to that bound (not refused; `clamped`
   * says so); a time after now is a 422.
   */
  @Get('whats-new')
  @Response<ErrorBody>('422', 'since is not an ISO 8601 time, or is in the future')
  public async getWhatsNew(@Query() since?: string): Promise<WhatsNew> {
    return this.s.overview.whatsNew(since);
  }

  /**
   * What waits on one member: `@name` mentions of them in comments written by someone else that
   * they have not acknowledged (acknowledge with POST /mentions/{id}/ack); their stale assigned
   * tasks (the GET /tasks/stale rule: queued or in_progress, not pinned, no update for more than
   * thresholdDays workspace days); and their open tasks (queued, in_progress, needs_input) due
   * within 48 hours or overdue, soonest first. Each section lists at most 20 rows with its total.
   * @param userId the member; defaults to the workspace owner
   * @param thresholdDays stale threshold in days, 1-60 (default 5)
   * @isInt thresholdDays must be an integer
   */
  @Get('personal-inbox')
  @Response<ErrorBody>('422', 'userId is not a member, or thresholdDays is out of bounds')
  public async getPersonalInbox(@Query() userId?: string, @Query() thresholdDays = 5): Promise<PersonalInbox> {
    return this.s.overview.personalInbox({ userId, thresholdDays });
  }

  /**
   * Reactions across comments, outputs, memory entries and signals, all time: per-emoji totals
   * (split by kind), totals per kind, and the most reacted things with their title and per-emoji
   * counts (ties: the newest reaction first).
   * @param topLimit how many top reacted things, 1-50 (default 8)
   * @isInt topLimit must be an integer
   */
  @Get('reactions-summary')
  @Response<ErrorBody>('422', 'topLimit is out of bounds')
  public async getReactionsSummary(@Query() topLimit = 8): Promise<ReactionsSummary> {
    return this.s.overview.reactionsSummary({ topLimit });
  }
}
