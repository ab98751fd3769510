import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ARTIFACT_STATUS } from '../../api/rules.gen';
import { useCursorList } from '../../api/cursor-list';
import { Badge } from '../../components/Badge';
import { LoadMore } from '../../components/LoadMore';
import { PageHeader, QueryState } from '../../components/Page';
import { Segmented } from '../../components/Segmented';
import { formatDateTime, formatRelative } from '../../lib/format';
import { outputsList, type ArtifactStatus, type ArtifactSummary } from './api';
import { attentionTone, outputStatusLabel, outputStatusTone, waitingLabel } from './format';
import './outputs.css';

// One status at a time, as GET /artifacts serves them: ready (the review queue, pinned first then
// oldest), approved and archived (most recently decided first).
const STATUS_OPTIONS = ARTIFACT_STATUS.map((s) => ({ value: s, label: s[0].toUpperCase() + s.slice(1) }));

export function OutputBadges({ output }: { output: ArtifactSummary }) {
  return (
    <span className="output-badges">
      <Badge tone={outputStatusTone(output.status)} title="Status">
        {outputStatusLabel(output.status)}
      </Badge>
      {output.approvalAttention && output.approvalAgeHours !== null ? (
        <Badge tone={attentionTone(output.approvalAttention)} title={`Review attention: ${output.approvalAttention}`}>
          {waitingLabel(output.approvalAgeHours)}
        </Badge>
      ) : null}
      <span className="type-chip">{output.kind}</span>
      <span className="type-chip" title="Version">
        v{output.version}
      </span>
      {output.pinned ? <Badge tone="info">pinned</Badge> : null}
    </span>
  );
}

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
  const list = useCursorList(outputsList(status));
  return (
    <div className="page">
      <PageHeader title="Outputs" description="Drafts the loop produced from tasks, signals and memory. Ready ones wait for your decision." />
      <div className="stack">
        <div className="filters">
          <Segmented label="Status" value={status} options={STATUS_OPTIONS} onChange={setStatus} />
        </div>
        {list.isPending || (list.error && !list.isFetchNextPageError) ? (
          <QueryState isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()} />
        ) : list.items.length === 0 ? (
          <div className="empty card card--padded">
            <p>{status === 'ready' ? 'Nothing waits for review.' : `No ${status} outputs.`}</p>
            <p className="muted small">Add signals, then press Run now in the header: the loop turns them into tasks and drafts.</p>
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
