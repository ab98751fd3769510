import { z } from 'zod';
import { MAX_BULK_IDS, MAX_ID_LENGTH, MAX_URL_LENGTH, MIN_BULK_IDS } from '../core/input';
import { APPROVAL_ATTENTIONS, ARTIFACT_LIST } from '../domain/artifacts/rules';
import { COST_BREAKDOWN_LIMIT } from '../domain/cost/rules';
import { MAX_SEARCH_QUERY_LENGTH, SEARCH_KINDS, SEARCH_LIMIT } from '../domain/search/rules';
import { MAX_DETAIL_LENGTH, MAX_TITLE_LENGTH } from '../domain/signals/signal-rules';
import { SIGNAL_KINDS, SIGNAL_PRIORITIES } from '../domain/signals/signal-store';
import {
  MAX_NOTE_CHARS,
  MAX_TASK_GOAL,
  MAX_TASK_SUMMARY,
  MAX_TASK_TAG_LENGTH,
  MAX_TASK_TAGS,
  MAX_TASK_TITLE,
  TASK_DELIVERABLE_TYPES,
  TASK_KINDS,
  TASK_PRIORITIES,
  TASK_TAG_PATTERN,
} from '../domain/tasks/rules';
import { LOOP_STATES } from '../domain/workspace/rules';

/**
 * The tools' input shapes, built from the same domain constants the REST API's validation and
 * OpenAPI document use (server/openapi/rules.ts): a bound changed there changes here. The domain
 * services check every value again, so these shapes are what clients are told, not a second rule.
 */

const enumOf = <T extends string>(values: readonly T[]) => z.enum(values as [T, ...T[]]);
const id = (what: string) => z.string().min(1).max(MAX_ID_LENGTH).describe(what);
const limit = (spec: { defaultLimit: number; maxLimit: number }, what: string) =>
  z.number().int().min(1).max(spec.maxLimit).optional().describe(`${what}, 1-${spec.maxLimit} (default ${spec.defaultLimit})`);

export const reviewQueueInput = {
  attention: enumOf(APPROVAL_ATTENTIONS).optional().describe('only outputs with this attention label (fresh, watch, overdue)'),
  limit: limit(ARTIFACT_LIST, 'outputs per page'),
  cursor: z.string().max(512).optional().describe('nextCursor of the previous page'),
};

export const readOutputInput = { id: id('the output id (art_...)') };

export const decideInput = {
  ids: z
    .array(z.string().min(1).max(MAX_ID_LENGTH))
    .min(MIN_BULK_IDS)
    .max(MAX_BULK_IDS)
    .optional()
    .describe(`the outputs to decide (${MIN_BULK_IDS}-${MAX_BULK_IDS} ids); leave out with allReady`),
  allReady: z.boolean().optional().describe('true: decide every output that is ready now (instead of ids)'),
};

export const searchInput = {
  q: z.string().min(1).max(MAX_SEARCH_QUERY_LENGTH).describe(`the text searched, 1-${MAX_SEARCH_QUERY_LENGTH} characters`),
  limit: z.number().int().min(SEARCH_LIMIT.min).max(SEARCH_LIMIT.max).optional().describe(`hits, ${SEARCH_LIMIT.min}-${SEARCH_LIMIT.max} (default ${SEARCH_LIMIT.default})`),
  kinds: z.array(enumOf(SEARCH_KINDS)).max(SEARCH_KINDS.length).optional().describe('only these kinds (default all)'),
};

export const addSignalInput = {
  title: z.string().min(1).max(MAX_TITLE_LENGTH).describe(`what happened, 1-${MAX_TITLE_LENGTH} characters`),
  detail: z.string().max(MAX_DETAIL_LENGTH).optional().describe(`the whole text, at most ${MAX_DETAIL_LENGTH} characters`),
  kind: enumOf(SIGNAL_KINDS).optional().describe('default note'),
  priority: enumOf(SIGNAL_PRIORITIES).optional().describe('default normal'),
  sourceUrl: z.string().max(MAX_URL_LENGTH).optional().describe('where it was found (http or https)'),
};

export const createTaskInput = {
  title: z.string().min(1).max(MAX_TASK_TITLE).describe(`1-${MAX_TASK_TITLE} characters`),
  summary: z.string().min(1).max(MAX_TASK_SUMMARY).describe(`what the task is about, 1-${MAX_TASK_SUMMARY} characters`),
  kind: enumOf(TASK_KINDS).optional(),
  deliverableType: enumOf(TASK_DELIVERABLE_TYPES).optional().describe('what the loop should produce'),
  priority: enumOf(TASK_PRIORITIES).optional(),
  dueAt: z.string().max(40).optional().describe('ISO 8601 time, or a date (start of that day in the workspace timezone)'),
  tags: z
    .array(z.string().max(MAX_TASK_TAG_LENGTH).regex(TASK_TAG_PATTERN))
    .max(MAX_TASK_TAGS)
    .optional()
    .describe(`at most ${MAX_TASK_TAGS}: lowercase letters and digits joined by single hyphens`),
  goal: z.string().max(MAX_TASK_GOAL).optional().describe('what done looks like'),
};

export const addNoteInput = {
  taskId: id('the task id (tsk_...)'),
  text: z.string().min(1).max(MAX_NOTE_CHARS).describe(`the note, 1-${MAX_NOTE_CHARS} characters: the next cycle follows it as the operator's direction`),
};

export const spendInput = {
  limit: z.number().int().min(COST_BREAKDOWN_LIMIT.min).max(COST_BREAKDOWN_LIMIT.max).optional().describe('rows per breakdown'),
};

export const setLoopInput = {
  loopState: enumOf(LOOP_STATES).describe('on: cycles run on schedule; paused: held until set on; off: stopped'),
};
