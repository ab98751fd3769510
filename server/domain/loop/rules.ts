/** Pure rules of loop runs (cycles). */
import { defineList } from '../../core/lists';
import { type RunTrigger, RUN_TRIGGERS, type RunStatus, RUN_STATUSES } from '../../core/vocabulary';
export { type RunTrigger, RUN_TRIGGERS, type RunStatus, RUN_STATUSES };

/**
 * Why a due cycle did not run (runs.skip_reason): `cost_cap_reached`, today's spend is at the cap;
 * `cost_cap_insufficient`, what is left of the cap cannot pay for even the smallest cycle (its
 * prompt and a minimal answer at the model's price; errorMessage gives the figures).
 */
export type RunSkipReason = 'cost_cap_reached' | 'cost_cap_insufficient';
export const RUN_SKIP_REASONS = ['cost_cap_reached', 'cost_cap_insufficient'] as const;

/**
 * New signals one cycle takes in at most, oldest first: a backlog (a first import of a big feed)
 * is worked through over several cycles instead of one huge prompt and one long transaction.
 */
export const MAX_NEW_SIGNALS_PER_CYCLE = 1000;
/** Open tasks one cycle considers at most (the oldest first, then ranked by the cycle rules). */
export const MAX_OPEN_TASKS_PER_CYCLE = 500;
/** Attached signals handed to the engine per task at most (the newest). */
export const MAX_TASK_SIGNALS_IN_CYCLE = 20;
/** Tasks the engine may work into outputs per cycle (highest ranked first). */
export const WORK_BUDGET_PER_CYCLE = 5;
/** Memory ids kept per task in sourceMemoryIds (the newest). */
export const MAX_TASK_SOURCE_MEMORY_IDS = 100;

/** GET /runs: newest first. */
export const RUN_LIST = defineList('ListRuns', 25, 100);

/** Error messages are stored and shown as is, up to this length. */
export const MAX_RUN_ERROR_CHARS = 1000;

/** Ranking weight of a task priority (higher first); no priority ranks as `normal`. */
export const PRIORITY_RANK: Record<string, number> = { urgent: 3, high: 2, normal: 1, low: 0 };

/** After a scheduled look with nothing to do, the next look waits this long (then a cycle starts as soon as there is work, the interval since the last cycle allowing). */
export const IDLE_RECHECK_MS = 60_000;

/**
 * A scheduled look that finds a cycle due within this long readies the cycle worker for it (the
 * scheduler looks every 15 s, so one look always falls in the window; the worker, once ready, is
 * kept longer than this: WORKER_IDLE_STOP_MS).
 */
export const WARM_AHEAD_MS = 20_000;
