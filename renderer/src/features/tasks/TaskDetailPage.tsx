import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { LIMITS } from '../../api/rules.gen';
import { Badge } from '../../components/Badge';
import { FormError } from '../../components/FormError';
import { PageHeader, QueryState } from '../../components/Page';
import { formatDateTime, formatRelative } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { taskQuery, useDuplicate, useRenew, type TaskDetail } from './api';
import { CommentsSection } from './components/CommentsSection';
import { LinkedSection } from './components/LinkedSection';
import { NotesSection } from './components/NotesSection';
import { ShareSection } from './components/ShareSection';
import { TaskFields } from './components/TaskFields';
import { TimelineSection } from './components/TimelineSection';
import { priorityTone, statusLabel, statusTone } from './format';
import './tasks.css';

function RenewForm({ task }: { task: TaskDetail }) {
  const renew = useRenew(task.id);
  const [note, setNote] = useState('');
  const [done, setDone] = useState(false);
  return (
    <form
      className="inline-form"
      aria-label="Renew"
      onSubmit={(e) => {
        e.preventDefault();
        setDone(false);
        renew.mutate(note.trim(), {
          onSuccess: () => {
            setNote('');
            setDone(true);
          },
        });
      }}
    >
      <input className="input" aria-label="Renew note" placeholder="Optional note" value={note} maxLength={LIMITS.TaskRenewBody.note.maxLength} onChange={(e) => setNote(e.target.value)} />
      <button type="submit" className="button button--secondary button--small" disabled={renew.isPending}>
        Renew
      </button>
      <span className="muted small" role="status">
        {done ? 'Renewed.' : ''}
      </span>
      <FormError error={renew.error} />
    </form>
  );
}

function Actions({ task }: { task: TaskDetail }) {
  const navigate = useNavigate();
  const duplicate = useDuplicate(task.id);
  return (
    <div className="task-actions">
      <button
        type="button"
        className="button button--secondary"
        disabled={duplicate.isPending}
        onClick={() => duplicate.mutate(undefined, { onSuccess: (copy) => void navigate({ to: '/tasks/$taskId', params: { taskId: copy.id } }) })}
      >
        Duplicate
      </button>
      <FormError error={duplicate.error} />
    </div>
  );
}

/** One task's page (/tasks/<id>): what it is, its state, notes, comments, timeline and share links. */
export function TaskDetailPage() {
  const { taskId } = useParams({ strict: false }) as { taskId: string };
  const focusCommentId = useSearch({ strict: false }).comment;
  const task = useQuery(taskQuery(taskId));
  const t = task.data;
  usePageTitle(t?.title ?? null);
  return (
    <div className="page task-page">
      <p className="task-back small">
        <Link to="/tasks">← Tasks</Link>
      </p>
      {!t ? (
        <QueryState isPending={task.isPending} error={task.error} onRetry={() => void task.refetch()} />
      ) : (
        <>
          <PageHeader
            title={t.title}
            description={
              <span className="task-header__badges">
                <Badge tone={statusTone(t.status)} title="Status">
                  {statusLabel(t.status)}
                </Badge>
                {t.priority ? <Badge tone={priorityTone(t.priority)}>{t.priority}</Badge> : null}
                {t.blocked ? <Badge tone="warning">blocked</Badge> : null}
                {t.kind ? <span className="type-chip">{t.kind}</span> : null}
                {t.deliverableType ? <span className="type-chip">{t.deliverableType}</span> : null}
                <span className="muted small" title={formatDateTime(t.updatedAt)}>
                  updated {formatRelative(t.updatedAt)}
                </span>
              </span>
            }
            actions={<Actions task={t} />}
          />
          <div className="detail-columns">
            <div className="stack">
              <section className="card card--padded" aria-labelledby="task-summary-title">
                <h2 className="card__title" id="task-summary-title">
                  Summary
                </h2>
                <p className="task-summary">{t.summary}</p>
                {t.goal ? <p className="small">Goal: {t.goal}</p> : null}
                {t.dueAt ? <p className="small muted">Due {formatDateTime(t.dueAt)}</p> : null}
                {t.archiveWarnedAt ? <p className="notice notice--warning">The stale sweep will archive this task soon unless it is renewed.</p> : null}
                <RenewForm task={t} />
              </section>
              <NotesSection taskId={t.id} />
              <CommentsSection taskId={t.id} focusCommentId={focusCommentId} />
            </div>
            <div className="stack">
              <TaskFields task={t} />
              <LinkedSection taskId={t.id} />
              <ShareSection task={t} />
              <TimelineSection taskId={t.id} />
            </div>
          </div>
        </>
      )}
    </div>
  );
}
