import { Body, Controller, Get, Patch, Path, Post, Put, Query, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { TaskBulkAction, TaskDeliverableType, TaskKind, TaskPriority, TaskStatusMove } from '../../domain/tasks/rules';
import type { TaskBulkResult } from '../../domain/tasks/task-bulk';
import type { TaskList } from '../../domain/tasks/task-crud';
import type { PostedNote, TaskNoteList } from '../../domain/tasks/task-notes';
import type { AutoArchivedList, StaleTaskList } from '../../domain/tasks/task-staleness';
import type { TaskCost, TaskDetail } from '../../domain/tasks/task-store';
import type { TopCostTaskList } from '../../domain/tasks/task-cost';
import type { TaskCostTrajectory } from '../../domain/cost/cost-views';
import type { TaskSources, TaskTimeline } from '../../domain/tasks/task-timeline';
import type { TaskOutputs } from '../../domain/tasks/task-outputs';
import type { TaskSourceMemoryEntries } from '../../domain/memory/memory-crud';
import type { Services } from '../../services';

export interface CreateTaskBody {
  title: string;
  summary: string;
  kind?: TaskKind | null;
  deliverableType?: TaskDeliverableType | null;
  priority?: TaskPriority | null;
  /**
   * ISO 8601; a date alone is the start of that day in the workspace timezone.
   * @example "2026-03-20T17:00:00Z"
   */
  dueAt?: string | null;
  /**
   * At most 10 tags, each lowercase letters and digits joined by single hyphens (at most 40 characters); duplicates are folded.
   */
  tags?: string[];
  goal?: string;
  context?: string;
  /** The member creating it (activity rows name them); default the owner. */
  asUserId?: string;
}

export interface TaskStatusBody {
  /**
   * queued, in_progress, needs_input or done: the operator moves a task freely among them; an
   * archived task is restored by any move. Any other value is a 422 listing these.
   */
  status: TaskStatusMove;
}

export interface TaskAssigneeBody {
  /** A member's id, or null to unassign. A non-member is a 422 naming assignedToUserId. */
  assignedToUserId: string | null;
}

export interface TaskPinBody {
  /** true pins the task (kept out of the stale list and the auto-archive sweep); false unpins it. */
  pinned: boolean;
}

export interface TaskTagsBody {
  /**
   * Replaces the tags: at most 10, each lowercase letters and digits joined by single hyphens (at most 40 characters).
   */
  tags: string[];
}

export interface TaskBlockersBody {
  /**
   * Replaces what the task waits on: at most 8 known tasks, not the task itself, no cycles.
   */
  blockedByTaskIds: string[];
}

export interface TaskBulkBody {
  action: TaskBulkAction;
  taskIds: string[];
  /** Required for `priority`; null clears the priority. */
  priority?: TaskPriority | null;
  /**
   * Required for `tag` and `untag`.
   */
  tag?: string;
}

export interface TaskNoteBody {
  text: string;
  /** The note's author; default the owner. */
  asUserId?: string;
}

export interface TaskRenewBody {
  /**
   * Recorded as an operator note.
   */
  note?: string;
}

export interface TaskDuplicateBody {
  /** Who duplicates (activity rows name them); default the owner. */
  asUserId?: string;
}

/**
 * The task queue. Statuses: queued, in_progress, needs_input, done, and archived (set by the stale
 * auto-archive sweep only; any status move restores it). Vocabularies (the spec leaves them open):
 * kind research | writing | analysis | outreach | review | planning | ops | other; deliverableType
 * brief | report | draft | summary | plan | checklist | email | post | other; priority low | normal |
 * high | urgent. Every change bumps updatedAt (staleness restarts) and clears an archive warning,
 * writes an activity row and, where a subscriber would want it, an event: `task.created`,
 * `task.status_changed`, `task.assigned`, `task.unblocked` (the last unfinished blocker of a task
 * moved to done; once per such move), `task.deleted`, `task.note_added`, `task.renewed`,
 * `task.archive_warning`.
 */
/** The orders of GET /tasks (server/domain/tasks/task-sort.ts TASK_SORTS). */
export type TaskSortParam = 'smart' | 'priority' | 'due' | 'updated' | 'created';

@Route('api/v1/tasks')
@Tags('Tasks')
@Security('bearer')
export class TasksController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * The queue, newest first. Without `status`, every task but archived ones.
   * @param status comma list of queued, in_progress, needs_input, done, archived (e.g. `queued,in_progress`)
   * @param assignedToUserId only tasks assigned to this member
   * @param tag only tasks carrying this tag (lowercase letters and digits joined by hyphens; a malformed tag is a 422 naming `tag`)
   * @param limit tasks per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served (with the same sort and filters)
   * @param sort the order (a member's active-work sort): `created` (default) newest first; `updated`
   * most recently changed first; `priority` highest first (none counts as normal), then most recently
   * changed; `due` soonest due first, undated last, then highest priority; `smart` the loop's order:
   * open work first, then tasks carrying a focus tag, then highest priority, then oldest. The id
   * breaks ties.
   */
  @Get()
  @Response<ErrorBody>('422', 'status names an unknown status, or sort, limit or cursor is invalid')
  public async listTasks(@Query() status?: string, @Query() assignedToUserId?: string, @Query() tag?: string, @Query() limit = 50, @Query() cursor?: string, @Query() sort?: TaskSortParam): Promise<TaskList> {
    return this.s.tasks.list({ status, assignedToUserId, tag, limit, cursor, sort });
  }

  /** Creates a queued task (event `task.created`). */
  @Post()
  @SuccessResponse(201, 'Created')
  public async createTask(@Body() body: CreateTaskBody): Promise<TaskDetail> {
    const task = await this.s.tasks.create(body);
    this.setStatus(201);
    return task;
  }

  /**
   * Bulk delete, priority, tag or untag of 1-50 tasks under the bulk policy (see the API
   * description): unknown ids in `notFound`; `tag` on a task that already has 10 tags is `skipped`.
   * Deleting a task removes its tags, blockers (both ways), notes and work log; its activity rows stay.
   */
  @Post('bulk')
  public async bulkTaskAction(@Body() body: TaskBulkBody): Promise<TaskBulkResult> {
    return this.s.tasks.bulk(body);
  }

  /**
   * Queued and in_progress tasks, not pinned, without an updatedAt bump for more than thresholdDays
   * calendar days (workspace timezone); oldest first, each with daysStale.
   * @param thresholdDays days without a change
   * @isInt thresholdDays must be an integer
   * @param assignedToUserId only tasks assigned to this member
   * @param tag only tasks carrying this tag (lowercase letters and digits joined by hyphens; a malformed tag is a 422 naming `tag`)
   * @param limit tasks per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('stale')
  public async listStaleTasks(@Query() thresholdDays = 5, @Query() assignedToUserId?: string, @Query() limit = 10, @Query() cursor?: string): Promise<StaleTaskList> {
    return this.s.tasks.stale({ thresholdDays, assignedToUserId, limit, cursor });
  }

  /**
   * Tasks the stale auto-archive sweep archived in the last sinceDays, newest archive first. The
   * sweep (hourly; workspace staleTaskAutoArchiveDays, off when null) warns a task untouched for
   * N-1 days (`archiveWarnedAt`, event `task.archive_warning`) and archives it once untouched for N
   * days and warned at least a day before; pinned tasks and tasks not queued or in_progress are left alone.
   * @param sinceDays window in days
   * @isInt sinceDays must be an integer
   * @param limit tasks per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('auto-archived')
  public async listAutoArchivedTasks(@Query() sinceDays = 30, @Query() limit = 50, @Query() cursor?: string): Promise<AutoArchivedList> {
    return this.s.tasks.autoArchived({ sinceDays, limit, cursor });
  }

  /**
   * Tasks by cumulative cost (all cycles so far), most first (ties: id); tasks without cost are
   * left out. Each row is a task as lists show it plus `trajectory7d`: its daily spend in whole
   * cents over the last 7 workspace days, oldest first, today last, zero-filled.
   * @param limit rows
   * @isInt limit must be an integer
   * @param includeDone also done and archived tasks (default false: open tasks only, queued, in_progress, needs_input)
   */
  @Get('top-cost')
  @Response<ErrorBody>('422', 'limit is out of bounds')
  public async getTopCostTasks(@Query() limit = 5, @Query() includeDone = false): Promise<TopCostTaskList> {
    return this.s.tasks.topByCost({ limit, includeDone });
  }

  /** One task with its assignee, blockers, notes count, cost and share state. */
  @Get('{id}')
  public async getTask(@Path() id: string): Promise<TaskDetail> {
    return this.s.tasks.get(id);
  }

  /**
   * Moves the task to queued, in_progress, needs_input or done (no rule on which move; an archived
   * task is restored). The current status again changes nothing. A move to done makes eligible each
   * task whose last unfinished blocker this was: event `task.unblocked` once for each.
   */
  @Patch('{id}')
  @Response<ErrorBody>('422', 'status is not one of queued, in_progress, needs_input, done')
  public async updateTaskStatus(@Path() id: string, @Body() body: TaskStatusBody): Promise<TaskDetail> {
    return this.s.tasks.setStatus(id, body.status);
  }

  /** Assigns the task to a member, or unassigns it with null (event `task.assigned`). */
  @Patch('{id}/assignee')
  @Response<ErrorBody>('422', 'assignedToUserId is not a member')
  public async assignTask(@Path() id: string, @Body() body: TaskAssigneeBody): Promise<TaskDetail> {
    return this.s.tasks.assign(id, body.assignedToUserId);
  }

  /** Pins or unpins the task (beyond the spec, which excludes pinned tasks from staleness without a route to pin one). */
  @Patch('{id}/pin')
  @Response<ErrorBody>('422', 'pinned is not a boolean')
  public async pinTask(@Path() id: string, @Body() body: TaskPinBody): Promise<TaskDetail> {
    return this.s.tasks.setPinned(id, body.pinned);
  }

  /** Replaces the tags. */
  @Put('{id}/tags')
  public async setTaskTags(@Path() id: string, @Body() body: TaskTagsBody): Promise<TaskDetail> {
    return this.s.tasks.setTags(id, body.tags);
  }

  /**
   * Replaces the blockers. The AI cycle skips a task while any blocker is not done (`blocked`).
   * 422 naming blockedByTaskIds: more than 8, the task itself, an unknown id, or a cycle.
   */
  @Put('{id}/blockers')
  @Response<ErrorBody>('422', 'blockedByTaskIds: more than 8, the task itself, an unknown task, or a cycle')
  public async setTaskBlockers(@Path() id: string, @Body() body: TaskBlockersBody): Promise<TaskDetail> {
    return this.s.tasks.setBlockers(id, body.blockedByTaskIds);
  }

  /**
   * Operator notes, newest first.
   * @param limit notes per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('{id}/notes')
  public async listTaskNotes(@Path() id: string, @Query() limit = 50, @Query() cursor?: string): Promise<TaskNoteList> {
    return this.s.tasks.notes(id, { limit, cursor });
  }

  /**
   * Posts an operator note (1-600 characters), fed to the next AI cycle as authoritative direction
   * (event `task.note_added`). On a needs_input task the task moves to queued (`task.status_changed`, cause `note`).
   */
  @Post('{id}/notes')
  @SuccessResponse(201, 'Created')
  public async postTaskNote(@Path() id: string, @Body() body: TaskNoteBody): Promise<PostedNote> {
    const posted = await this.s.tasks.postNote(id, body.text, body.asUserId);
    this.setStatus(201);
    return posted;
  }

  /**
   * Bumps updatedAt and clears the archive warning; the status stays. An optional note (1-600
   * characters) is recorded as an operator note. Event `task.renewed`.
   */
  @Post('{id}/renew')
  public async renewTask(@Path() id: string, @Body() body?: TaskRenewBody): Promise<TaskDetail> {
    return this.s.tasks.renew(id, body?.note);
  }

  /**
   * A new queued task copying kind, deliverableType, priority, assignee, tags, goal, context and
   * summary; the title gets ` (copy)` (the original title is cut so the result stays within 200
   * characters). Work log, notes, comments, blockers, source ids, dueAt, pin, share links and cost
   * start empty.
   */
  @Post('{id}/duplicate')
  @SuccessResponse(201, 'Created')
  public async duplicateTask(@Path() id: string, @Body() body?: TaskDuplicateBody): Promise<TaskDetail> {
    const task = await this.s.tasks.duplicate(id, body?.asUserId);
    this.setStatus(201);
    return task;
  }

  /**
   * The task's unified timeline, newest first: creation, AI cycles (work-log entries), operator
   * notes, comments and the task's activity rows.
   * @param limit entries per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('{id}/timeline')
  public async getTaskTimeline(@Path() id: string, @Query() limit = 60, @Query() cursor?: string): Promise<TaskTimeline> {
    return this.s.tasks.timeline(id, { limit, cursor });
  }

  /** The originating signals (sourceSignalIds), newest first; ids of signals deleted since are in missingSignalIds. */
  @Get('{id}/sources')
  public async getTaskSources(@Path() id: string): Promise<TaskSources> {
    return this.s.tasks.sources(id);
  }

  /**
   * The outputs written for the task (by its AI cycles, or as members' edits and reopens), newest
   * first, at most 50, every version (a superseded one has supersededAt). Not in the spec: the
   * task's page links them.
   */
  @Get('{id}/outputs')
  @Response<ErrorBody>('404', 'No such task')
  public async getTaskOutputs(@Path() id: string): Promise<TaskOutputs> {
    return this.s.tasks.outputs(id);
  }

  /** The task's cost so far: tokens, USD (6 decimals), AI cycles that worked it and the cost per cycle (0 before the first). */
  @Get('{id}/cost')
  public async getTaskCost(@Path() id: string): Promise<TaskCost> {
    return this.s.tasks.cost(id);
  }

  /**
   * The task's daily tokens and cost, oldest first, today last, one point per workspace-timezone
   * day (zero-filled).
   * @param days window in workspace days, today included
   * @isInt days must be an integer
   */
  @Get('{id}/cost-trajectory')
  @Response<ErrorBody>('422', 'days is out of bounds')
  public async getTaskCostTrajectory(@Path() id: string, @Query() days = 7): Promise<TaskCostTrajectory> {
    return this.s.tasks.costTrajectory(id, days);
  }

  /**
   * The memory entries the task's AI cycles pulled (sourceMemoryIds), in that order, archived ones
   * included; ids of entries deleted since are in missingMemoryIds.
   */
  @Get('{id}/source-memory')
  public async getTaskSourceMemory(@Path() id: string): Promise<TaskSourceMemoryEntries> {
    const { memoryIds } = await this.s.tasks.sourceMemory(id);
    return this.s.memory.forTask(id, memoryIds);
  }
}
