import { useQuery } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useCursorList } from '../../api/cursor-list';
import { Badge } from '../../components/Badge';
import { LoadMore } from '../../components/LoadMore';
import { PageHeader, QueryState } from '../../components/Page';
import { formatDateTime, formatRelative } from '../../lib/format';
import { memoryQuery } from '../memory/api';
import { outputQuery } from '../outputs/api';
import { signalQuery } from '../signals/api';
import { taskQuery } from '../tasks/api';
import { runsList, statsQuery, type Run, type RunningCycle } from './api';
import { CancelCycleButton, CycleProgress, type CancelFeedback } from './CycleProgress';
import { formatCount, formatMs, formatUsd, producedSummary, readSummary, runStatusLabel, runStatusTone, skipReasonText } from './format';
import './runs.css';

/** Ids shown per group when a cycle is opened; the rest are counted. */
const IDS_SHOWN = 12;

function TaskLink({ id }: { id: string }) {
  const task = useQuery(taskQuery(id));
  return (
    <Link to="/tasks/$taskId" params={{ taskId: id }}>
      {task.data?.title ?? (task.isError ? 'A deleted task' : 'Loading…')}
    </Link>
  );
}

function OutputLink({ id }: { id: string }) {
  const output = useQuery(outputQuery(id));
  return (
    <Link to="/outputs/$artifactId" params={{ artifactId: id }}>
      {output.data ? `${output.data.title} (v${output.data.version})` : output.isError ? 'A deleted output' : 'Loading…'}
    </Link>
  );
}

/** One group of ids in an opened cycle, at most IDS_SHOWN of them rendered. */
function IdGroup({ label, ids, render }: { label: string; ids: string[]; render: (id: string) => ReactNode }) {
  if (ids.length === 0) return null;
  const rest = ids.length - IDS_SHOWN;
  return (
    <div className="run-ids">
      <h3 className="run-ids__label">
        {label} ({ids.length})
      </h3>
      <ul aria-label={label}>
        {ids.slice(0, IDS_SHOWN).map((id) => (
          <li key={id}>{render(id)}</li>
        ))}
        {rest > 0 ? <li className="muted small">and {rest} more</li> : null}
      </ul>
    </div>
  );
}

/** A signal by its title, opening on the Signals page (a deleted one says so; its id is no word for the operator). */
function SignalLink({ id }: { id: string }) {
  // The Signals page's own query refreshes itself; here the title is read once.
  const signal = useQuery({ ...signalQuery(id), refetchInterval: false });
  if (signal.isError) return <span className="muted">A deleted signal</span>;
  return (
    <Link to="/signals" search={{ signal: id }}>
      {signal.data?.title ?? 'Loading…'}
    </Link>
  );
}

function MemoryLink({ id }: { id: string }) {
  const entry = useQuery(memoryQuery(id));
  if (entry.isError) return <span className="muted">A deleted memory entry</span>;
  return (
    <Link to="/memory/$memoryId" params={{ memoryId: id }}>
      {entry.data?.title ?? 'Loading…'}
    </Link>
  );
}

function RunDetails({ run }: { run: Run }) {
  return (
    <div className="run-details">
      <div className="run-details__col">
        <h2 className="run-details__title">Read</h2>
        <IdGroup label="Signals" ids={run.read.signalIds} render={(id) => <SignalLink id={id} />} />
        <IdGroup label="Tasks" ids={run.read.taskIds} render={(id) => <TaskLink id={id} />} />
        <IdGroup label="Memory" ids={run.read.memoryIds} render={(id) => <MemoryLink id={id} />} />
        {run.read.noteIds.length > 0 ? <p className="small">{run.read.noteIds.length === 1 ? '1 operator note' : `${run.read.noteIds.length} operator notes`}, read as direction for their tasks.</p> : null}
        {run.counts.signalsRead + run.counts.tasksRead + run.counts.memoryRead + run.counts.notesRead === 0 ? <p className="muted small">Nothing.</p> : null}
      </div>
      <div className="run-details__col">
        <h2 className="run-details__title">Produced</h2>
        <IdGroup label="Outputs" ids={run.produced.artifactIds} render={(id) => <OutputLink id={id} />} />
        <IdGroup label="New tasks" ids={run.produced.createdTaskIds} render={(id) => <TaskLink id={id} />} />
        <IdGroup label="Updated tasks" ids={run.produced.updatedTaskIds} render={(id) => <TaskLink id={id} />} />
        <IdGroup label="Memory" ids={run.produced.memoryIds} render={(id) => <MemoryLink id={id} />} />
        {producedSummary(run.counts) === 'nothing new' ? <p className="muted small">Nothing.</p> : null}
      </div>
      <dl className="run-details__facts">
        <dt>Engine</dt>
        <dd>
          {run.engine} · {run.model}
        </dd>
        {run.engineMs !== null ? (
          <>
            <dt>Engine time</dt>
            <dd>{formatMs(run.engineMs)}</dd>
          </>
        ) : null}
        <dt>Tokens</dt>
        <dd>
          {formatCount(run.inputTokens)} in · {formatCount(run.outputTokens)} out
        </dd>
        <dt>Budget</dt>
        <dd title="What was left of today's cost cap when the cycle began">{run.budgetUsd === null ? 'no cap' : `${formatUsd(run.budgetUsd)} left of the cap`}</dd>
        <dt>Bound</dt>
        <dd title="The longest answer the model call was allowed, so the cycle fits its budget">{run.maxOutputTokens === null ? 'not recorded' : `${formatCount(run.maxOutputTokens)} output tokens`}</dd>
        <dt>Run id</dt>
        <dd className="run-ids__id">{run.id}</dd>
      </dl>
    </div>
  );
}

function RunItem({ run, cycle, feedback, onCancelled, target = false }: { run: Run; cycle: RunningCycle | null; feedback: CancelFeedback | null; onCancelled: (f: CancelFeedback) => void; target?: boolean }) {
  const [open, setOpen] = useState(false);
  const item = useRef<HTMLLIElement>(null);
  // The run a link pointed at (the header's "Why"): brought into view and focused, so its error is read first.
  useEffect(() => {
    if (!target || item.current === null) return;
    item.current.scrollIntoView?.({ block: 'nearest' });
    item.current.focus({ preventScroll: true });
  }, [target]);
  const detailsId = `run-details-${run.id}`;
  const cancelled = run.cancelledAt !== null;
  return (
    <li className={`run-item run-item--${cancelled ? 'cancelled' : run.status}${target ? ' is-target' : ''}`} ref={item} tabIndex={target ? -1 : undefined} aria-current={target ? 'true' : undefined}>
      <div className="run-item__head">
        <div className="run-item__when">
          <span className="run-item__time" title={formatDateTime(run.startedAt)}>
            {formatDateTime(run.startedAt)}
          </span>
          <span className="muted small">{formatRelative(run.startedAt)}</span>
        </div>
        <div className="run-item__badges">
          <Badge tone={cancelled ? 'neutral' : runStatusTone(run.status)} title={cancelled ? `Cancelled ${formatDateTime(run.cancelledAt!)}` : 'Status'}>
            {runStatusLabel(run)}
          </Badge>
          <span className="type-chip" title="Trigger">
            {run.trigger === 'manual' ? 'run now' : 'scheduled'}
          </span>
        </div>
        <div className="run-item__figures small">
          <span title="Duration">{run.durationMs !== null ? formatMs(run.durationMs) : 'running…'}</span>
          <span title={`${formatCount(run.inputTokens)} input and ${formatCount(run.outputTokens)} output tokens`}>{formatCount(run.inputTokens + run.outputTokens)} tokens</span>
          {run.engine === 'local' ? (
            <span className="run-item__cost" title={`The built-in engine runs offline for free: this is what ${run.model} would charge for the same work`}>
              <span>{formatUsd(run.estimatedCostUsd)}</span> <span className="muted">if on {run.model}</span>
            </span>
          ) : (
            <span className="run-item__cost" title={`Billed at ${run.model}'s price`}>
              {formatUsd(run.estimatedCostUsd)}
            </span>
          )}
        </div>
      </div>
      {cycle !== null && run.status === 'running' ? (
        <div className="run-item__progress small">
          <CycleProgress cycle={cycle} />
          <CancelCycleButton cycle={cycle} onDone={onCancelled} />
        </div>
      ) : null}
      {feedback ? (
        <p className={`notice notice--${feedback.tone} small`} role={feedback.tone === 'danger' ? 'alert' : 'status'}>
          {feedback.text}
        </p>
      ) : null}
      {run.status === 'skipped' ? (
        <p className="notice notice--warning small">
          {run.skipReason ? skipReasonText(run.skipReason) : 'This cycle did not run.'}
          {run.skipReason === 'cost_cap_insufficient' && run.errorMessage ? <span className="run-item__skip-detail"> {run.errorMessage}</span> : null}
        </p>
      ) : (
        <p className="run-item__summary small">
          <span className="muted">Read</span> {readSummary(run.counts)} <span className="muted">→ produced</span> {producedSummary(run.counts)}
        </p>
      )}
      {run.errorMessage && run.status !== 'skipped' ? <p className={`notice ${cancelled ? 'notice--info' : 'notice--danger'} small run-item__error`}>{run.errorMessage}</p> : null}
      {run.explanation ? <p className="small muted run-item__explanation">{run.explanation}</p> : null}
      {run.status !== 'skipped' ? (
        <button type="button" className="link-button small" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen(!open)}>
          {open ? 'Hide details' : 'Show what it read and produced'}
        </button>
      ) : null}
      {open ? (
        <div id={detailsId}>
          <RunDetails run={run} />
        </div>
      ) : null}
    </li>
  );
}

/** Every loop cycle, newest first: when, why, how long, what it read and produced, tokens and cost, errors and skips. */
export function RunsPage() {
  const list = useCursorList(runsList());
  const targetId = useSearch({ strict: false }).run;
  // The cycle under way (polled every second while one runs); the list follows when it starts or ends.
  const stats = useQuery(statsQuery());
  const cycle = stats.data?.cycle ?? null;
  const runningId = stats.data?.runningRunId ?? null;
  const { refetch } = list;
  const seenRunning = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    // Not on the first answer (the list was just fetched): on a cycle starting or ending since.
    if (stats.data === undefined) return;
    if (seenRunning.current !== undefined && seenRunning.current !== runningId) void refetch();
    seenRunning.current = runningId;
  }, [stats.data, runningId, refetch]);
  // What a cancel from this page ended with, shown on its row (the list refreshes under it).
  const [feedback, setFeedback] = useState<{ runId: string; f: CancelFeedback } | null>(null);
  return (
    <div className="page">
      <PageHeader title="Runs" description="Each loop cycle: what it read, what it produced and what it cost." />
      {list.isPending || (list.error && !list.isFetchNextPageError) ? (
        <QueryState isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()} />
      ) : list.items.length === 0 ? (
        <div className="empty card card--padded">
          <p>No cycles yet.</p>
          <p className="muted small">Turn the loop on in Settings, or press Run now in the header.</p>
        </div>
      ) : (
        <>
          <ul className="run-list" aria-label="Runs">
            {list.items.map((r) => (
              <RunItem key={r.id} run={r} target={r.id === targetId} cycle={cycle?.runId === r.id ? cycle : null} feedback={feedback?.runId === r.id ? feedback.f : null} onCancelled={(f) => setFeedback({ runId: r.id, f })} />
            ))}
          </ul>
          <LoadMore list={list} end={list.items.length > 10 ? 'That is every cycle.' : null} />
        </>
      )}
    </div>
  );
}
