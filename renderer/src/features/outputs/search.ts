import { APPROVAL_ATTENTION, ARTIFACT_STATUS, QUEUE_SORT, REVIEWER_FILTER } from '../../api/rules.gen';
import type { ApprovalAttention, ArtifactStatus, OutputsFilter, QueueSort, ReviewerFilter } from './api';

/**
 * The Outputs page's filters as URL search parameters (/outputs?attention=overdue), so a filtered
 * queue has an address: the desktop's overdue notification and tray open one. Unknown values are
 * dropped, never an error: an old or hand-typed link still opens the queue.
 */
export interface OutputsSearch {
  status?: ArtifactStatus;
  attention?: ApprovalAttention;
  /** `assigned`, `unassigned` or a member id. */
  reviewer?: ReviewerFilter | `usr_${string}`;
  sort?: QueueSort;
  /** The output selected in the split view (`art_…`): going back from its page returns to it. */
  selected?: `art_${string}`;
}

const oneOf = <T extends string>(values: readonly T[], v: unknown): T | undefined => (typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : undefined);

export function validateOutputsSearch(raw: Record<string, unknown>): OutputsSearch {
  const reviewer = typeof raw.reviewer === 'string' && /^usr_[0-9A-Za-z]{1,64}$/.test(raw.reviewer) ? (raw.reviewer as `usr_${string}`) : oneOf(REVIEWER_FILTER, raw.reviewer);
  // Every key is answered, undefined when invalid: the router merges this over the raw parameters.
  const selected = typeof raw.selected === 'string' && /^art_[0-9A-Za-z]{1,64}$/.test(raw.selected) ? (raw.selected as `art_${string}`) : undefined;
  return { status: oneOf(ARTIFACT_STATUS, raw.status), attention: oneOf(APPROVAL_ATTENTION, raw.attention), reviewer, sort: oneOf(QUEUE_SORT, raw.sort), selected };
}

/** Ready outputs wait longest-first; decided ones read newest-first (the API's own defaults). */
export const defaultSort = (status: ArtifactStatus): QueueSort => (status === 'ready' ? 'oldest' : 'recent');

/**
 * The list the page shows for these parameters: the page's hook and the route's loader ask with the
 * same filter, so the loader's request is the one the page finds. Defaults are left out, as the
 * queue's filters apply to the ready list only.
 */
export function outputsFilterFor(search: OutputsSearch): OutputsFilter {
  const status = search.status ?? 'ready';
  const queue = status === 'ready';
  const reviewer = search.reviewer;
  return {
    status,
    ...(search.sort !== undefined && search.sort !== defaultSort(status) ? { sort: search.sort } : {}),
    ...(queue && search.attention !== undefined ? { attention: search.attention } : {}),
    ...(queue && reviewer !== undefined ? (reviewer === 'assigned' || reviewer === 'unassigned' ? { reviewer } : { reviewerId: reviewer }) : {}),
  };
}
