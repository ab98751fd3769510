/** Pure rules of loop runs (cycles). */

/** `schedule`: the loop interval came round; `manual`: POST /runs (Run now). */
export type RunTrigger = 'schedule' | 'manual';
export const RUN_TRIGGERS = ['schedule', 'manual'] as const;

/** `skipped`: a cycle was due but did not run (the daily cost cap was reached; skipReason says why). */
export type RunStatus = 'running' | 'completed' | 'failed' | 'skipped';
export const RUN_STATUSES = ['running', 'completed', 'failed', 'skipped'] as const;
