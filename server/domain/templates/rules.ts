import { checkEnum, invalid } from '../../core/errors';
import { TASK_DELIVERABLE_TYPES, TASK_KINDS, TASK_PRIORITIES, type TaskDeliverableType, type TaskKind, type TaskPriority } from '../tasks/rules';
import { FOCUS_TAG_PATTERN, MAX_TAG_LENGTH } from '../workspace/rules';

/**
 * Pure rules of task templates. kind, deliverableType and priority take the task area's values, so
 * a task started from a template is always a valid task.
 */

export const MAX_TASK_TEMPLATES = 20;
export const TEMPLATE_LABEL = { min: 1, max: 60 } as const;
export const TEMPLATE_EMOJI_MAX = 16;
export const TEMPLATE_HINT_MAX = 200;
export const TEMPLATE_TITLE = { min: 1, max: 200 } as const;
export const TEMPLATE_SUMMARY = { min: 1, max: 2000 } as const;
export const TEMPLATE_GOAL_MAX = 1000;
export const MAX_TEMPLATE_TAGS = 10;

export interface TemplateFields {
  label: string;
  emoji: string | null;
  hint: string | null;
  title: string;
  summary: string;
  goal: string | null;
  kind: TaskKind;
  deliverableType: TaskDeliverableType;
  priority: TaskPriority | null;
  tags: string[];
}

/** A required text: trimmed, within bounds, not only spaces. */
export function requiredText(field: string, raw: unknown, bounds: { min: number; max: number }): string {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text.length < bounds.min || text.length > bounds.max) throw invalid(field, `must be ${bounds.min}-${bounds.max} characters and not only spaces`);
  return text;
}

/** An optional text: trimmed; null, undefined or only spaces is null; at most `max` characters. */
export function optionalText(field: string, raw: unknown, max: number): string | null {
  if (raw === undefined || raw === null) return null;
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (text.length > max) throw invalid(field, `must be at most ${max} characters`);
  return text.length === 0 ? null : text;
}

/** Tags as focus tags are checked (lowercase words joined by hyphens, at most 40 characters), at most 10, duplicates dropped. */
export function normaliseTemplateTags(tags: unknown): string[] {
  if (tags === undefined || tags === null) return [];
  if (!Array.isArray(tags)) throw invalid('tags', 'must be an array of tags');
  if (tags.length > MAX_TEMPLATE_TAGS) throw invalid('tags', `must hold at most ${MAX_TEMPLATE_TAGS} tags`);
  const out: string[] = [];
  tags.forEach((raw: unknown, i) => {
    const tag = typeof raw === 'string' ? raw.trim() : '';
    if (!FOCUS_TAG_PATTERN.test(tag) || tag.length > MAX_TAG_LENGTH) {
      throw invalid(`tags[${i}]`, `must be lowercase letters and digits joined by single hyphens (at most ${MAX_TAG_LENGTH} characters)`);
    }
    if (!out.includes(tag)) out.push(tag);
  });
  return out;
}

export type TemplateInput = Partial<Record<keyof TemplateFields, unknown>>;

/** Checks the fields present in `input` and returns them normalised (a partial for PATCH). */
export function checkTemplatePatch(input: TemplateInput): Partial<TemplateFields> {
  const out: Partial<TemplateFields> = {};
  if ('label' in input && input.label !== undefined) out.label = requiredText('label', input.label, TEMPLATE_LABEL);
  if ('emoji' in input && input.emoji !== undefined) out.emoji = optionalText('emoji', input.emoji, TEMPLATE_EMOJI_MAX);
  if ('hint' in input && input.hint !== undefined) out.hint = optionalText('hint', input.hint, TEMPLATE_HINT_MAX);
  if ('title' in input && input.title !== undefined) out.title = requiredText('title', input.title, TEMPLATE_TITLE);
  if ('summary' in input && input.summary !== undefined) out.summary = requiredText('summary', input.summary, TEMPLATE_SUMMARY);
  if ('goal' in input && input.goal !== undefined) out.goal = optionalText('goal', input.goal, TEMPLATE_GOAL_MAX);
  if ('kind' in input && input.kind !== undefined) out.kind = checkEnum('kind', TASK_KINDS, input.kind);
  if ('deliverableType' in input && input.deliverableType !== undefined) out.deliverableType = checkEnum('deliverableType', TASK_DELIVERABLE_TYPES, input.deliverableType);
  if ('priority' in input && input.priority !== undefined) out.priority = input.priority === null ? null : checkEnum('priority', TASK_PRIORITIES, input.priority);
  if ('tags' in input && input.tags !== undefined) out.tags = normaliseTemplateTags(input.tags);
  return out;
}

/** A whole new template: label, title, summary, kind and deliverableType required. */
export function checkNewTemplate(input: TemplateInput): TemplateFields {
  const p = checkTemplatePatch(input);
  return {
    label: p.label ?? requiredText('label', input.label, TEMPLATE_LABEL),
    emoji: p.emoji ?? null,
    hint: p.hint ?? null,
    title: p.title ?? requiredText('title', input.title, TEMPLATE_TITLE),
    summary: p.summary ?? requiredText('summary', input.summary, TEMPLATE_SUMMARY),
    goal: p.goal ?? null,
    kind: p.kind ?? checkEnum('kind', TASK_KINDS, input.kind),
    deliverableType: p.deliverableType ?? checkEnum('deliverableType', TASK_DELIVERABLE_TYPES, input.deliverableType),
    priority: p.priority ?? null,
    tags: p.tags ?? [],
  };
}
