import { useNavigate, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useDeferredValue } from 'react';
import { ARTIFACT_STATUS } from '../../api/rules.gen';
import { useCursorList } from '../../api/cursor-list';
import { PageHeader, QueryState } from '../../components/Page';
import { Segmented } from '../../components/Segmented';
import { useHoldHost } from './HoldNotice';
import { ReviewQueue } from './ReviewQueue';
import { CapacityPanel } from './CapacityPanel';
import { QueueStats } from './QueueStats';
import { outputsList, type ApprovalAttention, type ArtifactStatus, type QueueSort } from './api';
import { defaultSort, outputsFilterFor, type OutputsSearch } from './search';
import './outputs.css';
import './review.css';

// Its recharts chart (~360 kB) loads after the queue shows, not before the page can render (npm run bench).
const ThroughputPanel = lazy(() => import('./ThroughputPanel').then((m) => ({ default: m.ThroughputPanel })));

// One status at a time, as GET /artifacts serves them: ready (the review queue, pinned first then
// oldest), approved and archived (most recently decided first).
const STATUS_OPTIONS = ARTIFACT_STATUS.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }));
// Queue filters ('all' sends nothing); the API accepts them for the ready list only.
const ATTENTION_OPTIONS = [
  { value: 'all', label: 'Any attention' },
  { value: 'fresh', label: 'Fresh' },
  { value: 'watch', label: 'Watch' },
  { value: 'overdue', label: 'Overdue' },
] as const;
const SORT_OPTIONS = [
  { value: 'oldest', label: 'Oldest first' },
  { value: 'recent', label: 'Newest first' },
] as const;
/** The reviewer filter as one value: anyone, assigned, unassigned, or one member's id (`usr_…`). */
type ReviewerChoice = 'all' | NonNullable<OutputsSearch['reviewer']>;

/** Anyone / assigned / unassigned, then each member who reviews (from the queue's capacity aggregate). */
function ReviewerSelect({ value, onChange, reviewers }: { value: ReviewerChoice; onChange: (c: ReviewerChoice) => void; reviewers: readonly { userId: string; name: string; available: boolean }[] }) {
  return (
    <label className="filter-select small">
      <span className="muted">Review owner</span>
      <select className="input input--select" value={value} onChange={(e) => onChange(e.target.value as ReviewerChoice)}>
        <option value="all">Anyone</option>
        <option value="assigned">Assigned</option>
        <option value="unassigned">Unassigned</option>
        {reviewers.length > 0 ? (
          <optgroup label="Owner">
            {reviewers.map((r) => (
              <option key={r.userId} value={r.userId}>
                {r.name}
                {r.available ? '' : ' (away)'}
              </option>
            ))}
          </optgroup>
        ) : null}
      </select>
    </label>
  );
}

/**
 * Outputs the loop produced, by status (ready first: the review queue), as a split view: the list
 * and the selected output side by side; each opens /outputs/<id>.
 */
export function OutputsPage() {
  useHoldHost();
  // The filters are the URL's (replace: filtering is not a step back), defaults left out of it.
  const search = useSearch({ from: '/outputs' });
  const navigate = useNavigate({ from: '/outputs' });
  const status = search.status ?? 'ready';
  const attention = search.attention ?? 'all';
  const reviewer: ReviewerChoice = search.reviewer ?? 'all';
  const sort = search.sort ?? defaultSort(status);
  const queue = status === 'ready';
  const set = (patch: Partial<OutputsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  // A new status starts at its own default order.
  const setStatus = (s: ArtifactStatus) => set({ status: s === 'ready' ? undefined : s, sort: undefined, selected: undefined });
  const setSort = (o: QueueSort) => set({ sort: o === defaultSort(status) ? undefined : o });
  const setAttention = (a: ApprovalAttention | 'all') => set({ attention: a === 'all' ? undefined : a });
  const setReviewer = (r: ReviewerChoice) => set({ reviewer: r === 'all' ? undefined : r });
  // The route's loader asked for the same list at navigation (app/route-loaders.ts).
  const list = useCursorList(outputsList(outputsFilterFor(search)));
  const page = list.firstPage;
  // The insights beside the queue (a recharts chart) render in a transition after the queue shows:
  // in the same commit they were most of the page's longest task at full size (npm run bench).
  const insights = useDeferredValue(page);
  const titles = new Map(list.items.map((o) => [o.id, o.title]));
  return (
    <div className="page">
      <PageHeader title="Outputs" description="Drafts the loop produced from tasks, signals and memory. Ready ones wait for your decision." />
      <div className="stack">
        <div className="filters">
          <Segmented label="Status" value={status} options={STATUS_OPTIONS} onChange={setStatus} />
          <Segmented label="Order" value={sort} options={SORT_OPTIONS} onChange={setSort} />
          {queue ? (
            <>
              <Segmented label="Attention" value={attention} options={ATTENTION_OPTIONS} onChange={setAttention} />
              <ReviewerSelect value={reviewer} onChange={setReviewer} reviewers={page?.approvalCapacity.reviewers ?? []} />
            </>
          ) : null}
        </div>
        {list.isPending || (list.error && !list.isFetchNextPageError) ? (
          <QueryState isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <>
            {queue && page ? <QueueStats page={page} /> : null}
            <ReviewQueue list={list} status={status} filtered={attention !== 'all' || reviewer !== 'all'} />
            {queue && insights ? (
              <aside className="detail-columns queue-insights" aria-label="Review insights">
                <CapacityPanel capacity={insights.approvalCapacity} titleOf={(id) => titles.get(id)} />
                <Suspense fallback={null}>
                  <ThroughputPanel throughput={insights.approvalThroughput} />
                </Suspense>
              </aside>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
}
