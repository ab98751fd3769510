import { ARTIFACT_KINDS, type ArtifactKind } from '../artifacts/rules';
import { MEMORY_KINDS, type MemoryKind } from '../memory/rules';
import { MAX_TASK_SUMMARY, MAX_TASK_TAGS, MAX_TASK_TITLE, TASK_DELIVERABLE_TYPES, TASK_KINDS, TASK_PRIORITIES, TASK_STATUS_MOVES, type TaskStatusMove } from '../tasks/rules';
import { FOCUS_TAG_PATTERN, MAX_TAG_LENGTH } from '../workspace/rules';

/**
 * What an engine returns is not trusted as is (a remote model can answer anything the JSON schema
 * lets through): texts are trimmed and cut to the columns' bounds, enums fall back to a neutral
 * value, malformed tags are dropped. Pure functions, used by the apply step.
 */

const oneOf = <T extends string>(values: readonly T[], v: unknown, fallback: T): T => ((values as readonly unknown[]).includes(v) ? (v as T) : fallback);

/** Trimmed and cut to `max` characters (code points); `fallback` when nothing is left. */
export function cleanText(v: unknown, max: number, fallback = ''): string {
  const t = typeof v === 'string' ? v.trim() : '';
  // A text of at most `max` UTF-16 units has at most `max` code points: nothing to cut, no need to
  // split it into code points (apply cleans a thousand work-log lines in a big cycle).
  if (t.length <= max) return t === '' ? fallback : t;
  const chars = [...t];
  const cut = chars.length > max ? chars.slice(0, max).join('').trimEnd() : t;
  return cut === '' ? fallback : cut;
}

/** Lowercase-hyphen tags only (as the tasks area requires), duplicates folded, at most `max`. */
export function cleanTags(tags: unknown, max = MAX_TASK_TAGS): string[] {
  if (!Array.isArray(tags)) return [];
  const out: string[] = [];
  for (const raw of tags) {
    const tag = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
    if (FOCUS_TAG_PATTERN.test(tag) && tag.length <= MAX_TAG_LENGTH && !out.includes(tag)) out.push(tag);
    if (out.length >= max) break;
  }
  return out;
}

export const cleanTaskTitle = (v: unknown) => cleanText(v, MAX_TASK_TITLE, 'Untitled task');
export const cleanTaskSummary = (v: unknown) => cleanText(v, MAX_TASK_SUMMARY, 'Drafted by the AI cycle from new signals.');
export const cleanTaskKind = (v: unknown) => oneOf(TASK_KINDS, v, 'other');
export const cleanDeliverable = (v: unknown) => oneOf(TASK_DELIVERABLE_TYPES, v, 'other');
export const cleanPriority = (v: unknown) => oneOf(TASK_PRIORITIES, v, 'normal');
export const cleanArtifactKind = (v: unknown): ArtifactKind => oneOf(ARTIFACT_KINDS, v, 'other');
export const cleanMemoryKind = (v: unknown): MemoryKind => oneOf(MEMORY_KINDS, v, 'fact');

/** A status a cycle may move a task to (archived is the sweep's); anything else is ignored (null). */
export function cleanStatus(v: unknown): TaskStatusMove | null {
  return (TASK_STATUS_MOVES as readonly unknown[]).includes(v) ? (v as TaskStatusMove) : null;
}

/** Importance as a finite number within 0-10, or null. */
export function cleanImportance(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(10, Math.max(0, v)) : null;
}

/** A usage count as a non-negative integer. */
export const cleanTokens = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : 0);
