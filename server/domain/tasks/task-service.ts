import { bulkTasks, type TaskBulkInput } from './task-bulk';
import { TaskCosts } from './task-cost';
import { TaskCrud, type CreateTaskInput, type TaskDeps, type TaskListQuery } from './task-crud';
import { TaskNotes } from './task-notes';
import { taskOutputs } from './task-outputs';
import { TaskStaleness } from './task-staleness';
import { TaskTimelines, type TimelineSource } from './task-timeline';

/**
 * The tasks area as one object for controllers and jobs; each method belongs to one focused module
 * (crud, bulk, notes, staleness, timeline, cost), which holds the rules and result types.
 */
export class TaskService {
  readonly crud: TaskCrud;
  readonly notesOps: TaskNotes;
  readonly staleness: TaskStaleness;
  readonly timelines: TaskTimelines;
  readonly costs: TaskCosts;

  /** `otherTimelineSources`: entries other areas own on every task timeline (the comments'). */
  constructor(
    private readonly deps: TaskDeps,
    otherTimelineSources: readonly TimelineSource[],
  ) {
    this.crud = new TaskCrud(deps);
    this.notesOps = new TaskNotes(deps);
    this.staleness = new TaskStaleness(deps);
    this.timelines = new TaskTimelines(deps, otherTimelineSources);
    this.costs = new TaskCosts(deps);
  }

  // one task at a time (task-crud.ts)
  list = (query?: TaskListQuery) => this.crud.list(query);
  get = (id: string) => this.crud.get(id);
  create = (input: CreateTaskInput) => this.crud.create(input);
  setStatus = (id: string, status: unknown) => this.crud.setStatus(id, status);
  assign = (id: string, userId: string | null) => this.crud.assign(id, userId);
  setPinned = (id: string, pinned: unknown) => this.crud.setPinned(id, pinned);
  setTags = (id: string, tags: unknown) => this.crud.setTags(id, tags);
  setBlockers = (id: string, ids: unknown) => this.crud.setBlockers(id, ids);
  duplicate = (id: string, asUserId?: string) => this.crud.duplicate(id, asUserId);
  // many tasks (task-bulk.ts)
  bulk = (input: TaskBulkInput) => bulkTasks(this.deps, input);
  // notes and renew (task-notes.ts)
  notes = (id: string, query?: { limit?: number; cursor?: string }) => this.notesOps.list(id, query);
  postNote = (id: string, text: unknown, asUserId?: string) => this.notesOps.post(id, text, asUserId);
  renew = (id: string, note?: unknown) => this.notesOps.renew(id, note);
  // staleness (task-staleness.ts)
  stale = (query?: Parameters<TaskStaleness['stale']>[0]) => this.staleness.stale(query);
  autoArchived = (query?: Parameters<TaskStaleness['autoArchived']>[0]) => this.staleness.autoArchived(query);
  sweepStale = () => this.staleness.sweep();
  // timeline and inputs (task-timeline.ts)
  timeline = (id: string, query?: { limit?: number; cursor?: string }) => this.timelines.timeline(id, query);
  sources = (id: string) => this.timelines.sources(id);
  outputs = (id: string) => taskOutputs(this.deps.db, id);
  sourceMemory = (id: string) => this.timelines.sourceMemory(id);
  // cost (task-cost.ts)
  cost = (id: string) => this.costs.cost(id);
  costTrajectory = (id: string, days?: number) => this.costs.trajectory(id, days);
  topByCost = (query?: { limit?: number; includeDone?: boolean }) => this.costs.top(query);
}
