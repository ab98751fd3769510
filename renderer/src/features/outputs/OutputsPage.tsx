import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ARTIFACT_STATUS } from '../../api/rules.gen';
import { useCursorList } from '../../api/cursor-list';
import { LoadMore } from '../../components/LoadMore';
import { PageHeader, QueryState } from '../../components/Page';
import { Segmented } from '../../components/Segmented';
import { formatDateTime, formatRelative } from '../../lib/format';
import { OutputBadges } from './OutputBadges';
import { ReviewQueue } from './ReviewQueue';
import { outputsList, type ApprovalAttention, type ArtifactStatus, type ArtifactSummary, type ReviewerFilter } from './api';
import './outputs.css';

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
const REVIEWER_OPTIONS = [
  { value: 'all', label: 'Anyone' },
  { value: 'assigned', label: 'Assigned' },
  { value: 'unassigned', label: 'Unassigned' },
] as const;

function OutputItem({ output }: { output: ArtifactSummary }) {
  return (
    <li className="output-item">
      <div className="output-item__head">
        <Link className="output-item__title" to="/outputs/$artifactId" params={{ artifactId: output.id }}>
          {output.title}
        </Link>
        <OutputBadges output={output} />
      </div>
      <p className="output-item__meta muted small">
        {output.taskId ? (
          <span>
            for{' '}
            <Link to="/tasks/$taskId" params={{ taskId: output.taskId }}>
              {output.taskTitle ?? output.taskId}
            </Link>
          </span>
        ) : (
          <span>no task</span>
        )}
        <span title={formatDateTime(output.createdAt)}>made {formatRelative(output.createdAt)}</span>
        {output.decidedAt ? <span title={formatDateTime(output.decidedAt)}>decided {formatRelative(output.decidedAt)}</span> : null}
        {output.tags.map((t) => (
          <span key={t} className="output-tag">
            {t}
          </span>
        ))}
      </p>
    </li>
  );
}

/** Outputs the loop produced, by status (ready first: the review queue); each opens /outputs/<id>. */
export function OutputsPage() {
  const [status, setStatus] = useState<ArtifactStatus>('ready');
  const [attention, setAttention] = useState<ApprovalAttention | 'all'>('all');
  const [reviewer, setReviewer] = useState<ReviewerFilter | 'all'>('all');
  const queue = status === 'ready';
  const list = useCursorList(
    outputsList({
      status,
      ...(queue && attention !== 'all' ? { attention } : {}),
      ...(queue && reviewer !== 'all' ? { reviewer } : {}),
    }),
  );
  return (
    <div className="page">
      <PageHeader title="Outputs" description="Drafts the loop produced from tasks, signals and memory. Ready ones wait for your decision." />
      <div className="stack">
        <div className="filters">
          <Segmented label="Status" value={status} options={STATUS_OPTIONS} onChange={setStatus} />
          {queue ? (
            <>
              <Segmented label="Attention" value={attention} options={ATTENTION_OPTIONS} onChange={setAttention} />
              <Segmented label="Reviewer" value={reviewer} options={REVIEWER_OPTIONS} onChange={setReviewer} />
            </>
          ) : null}
        </div>
        {list.isPending || (list.error && !list.isFetchNextPageError) ? (
          <QueryState isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()} />
        ) : queue ? (
          <ReviewQueue list={list} filtered={attention !== 'all' || reviewer !== 'all'} />
        ) : list.items.length === 0 ? (
          <div className="empty card card--padded">
            <p>No {status} outputs.</p>
          </div>
        ) : (
          <>
            <ul className="output-list" aria-label="Outputs">
              {list.items.map((o) => (
                <OutputItem key={o.id} output={o} />
              ))}
            </ul>
            <LoadMore list={list} end={list.items.length > 10 ? 'That is all of them.' : null} />
          </>
        )}
      </div>
    </div>
  );
}
