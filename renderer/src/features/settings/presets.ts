import type { Schema } from '../../api/client';
import { LIMITS, PLAN } from '../../api/rules.gen';

type ApprovalPolicy = Schema<'ApprovalPolicy'>;

/** The approval-policy presets the spec offers operators; anything else is "custom". */
export const APPROVAL_PRESETS = [
  { value: 'fast', label: 'Fast', watchHours: 4, overdueHours: 12 },
  { value: 'daily', label: 'Daily', watchHours: 24, overdueHours: 72 },
  { value: 'weekly', label: 'Weekly', watchHours: 48, overdueHours: 120 },
] as const;

export type ApprovalPresetName = (typeof APPROVAL_PRESETS)[number]['value'] | 'custom';

export function presetOf(policy: ApprovalPolicy): ApprovalPresetName {
  return APPROVAL_PRESETS.find((p) => p.watchHours === policy.watchHours && p.overdueHours === policy.overdueHours)?.value ?? 'custom';
}

export const SPIKE_ACTION_OPTIONS: { value: Schema<'SpikeAction'>; label: string }[] = [
  // null is "not configured", which the server treats like none.
  { value: null, label: 'Not set (alert only)' },
  { value: 'none', label: 'Alert only' },
  { value: 'pause', label: 'Alert and pause' },
];

const PLAN_LABELS: Record<Schema<'Plan'>, string> = { free: 'Free', pro: 'Pro', team: 'Team' };
/** In the API's order; a plan the API adds fails the type check above until it has a label. */
export const PLAN_OPTIONS: { value: Schema<'Plan'>; label: string }[] = PLAN.map((value) => ({ value, label: PLAN_LABELS[value] }));

export const FOCUS_TAG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_FOCUS_TAGS = LIMITS.FocusTagsBody.tags.maxItems;
export const MAX_FOCUS_TAG_LENGTH = LIMITS.FocusTagsBody.tags.items.maxLength;
