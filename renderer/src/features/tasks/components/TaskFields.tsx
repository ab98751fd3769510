import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { LIMITS, TASK_STATUS_MOVE } from '../../../api/rules.gen';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { membersQuery } from '../../members/api';
import { useAssign, useSetBlockers, useSetPinned, useSetStatus, useSetTags, type TaskDetail, type TaskStatusMove } from '../api';
import { parseTags, statusLabel } from '../format';

function StatusField({ task }: { task: TaskDetail }) {
  const setStatus = useSetStatus(task.id);
  return (
    <Field label="Status" error={fieldError(setStatus.error, 'status')} hint={task.status === 'archived' ? 'Archived by the stale sweep; any move restores it.' : undefined}>
      {(control) => (
        <select {...control} className="input input--select" value={task.status} disabled={setStatus.isPending} onChange={(e) => setStatus.mutate(e.target.value as TaskStatusMove)}>
          {task.status === 'archived' ? <option value="archived">archived</option> : null}
          {TASK_STATUS_MOVE.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function AssigneeField({ task }: { task: TaskDetail }) {
  const assign = useAssign(task.id);
  const members = useQuery(membersQuery());
  const list = members.data?.members ?? (task.assignee ? [task.assignee] : []);
  return (
    <Field label="Assignee" error={fieldError(assign.error, 'assignedToUserId')}>
      {(control) => (
        <select {...control} className="input input--select" value={task.assignedToUserId ?? ''} disabled={assign.isPending} onChange={(e) => assign.mutate(e.target.value || null)}>
          <option value="">Unassigned</option>
          {list.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function TagsEditor({ task }: { task: TaskDetail }) {
  const setTags = useSetTags(task.id);
  const [draft, setDraft] = useState('');
  const save = (tags: string[]) => setTags.mutate(tags, { onSuccess: () => setDraft('') });
  return (
    <div className="task-field">
      <Field label="Tags" hint={`At most ${LIMITS.TaskTagsBody.tags.maxItems}.`} error={fieldError(setTags.error, 'tags')}>
        {(control) => (
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              const add = parseTags(draft);
              if (add.length) save([...task.tags, ...add.filter((t) => !task.tags.includes(t))]);
            }}
          >
            <input {...control} className="input" placeholder="add tags" value={draft} onChange={(e) => setDraft(e.target.value)} />
            <button type="submit" className="button button--secondary button--small" disabled={setTags.isPending || !draft.trim()}>
              Add tag
            </button>
          </form>
        )}
      </Field>
      <ul className="task-chips" aria-label="Current tags">
        {task.tags.map((tag) => (
          <li key={tag} className="task-tag">
            {tag}
            <button type="button" className="task-chip__remove" aria-label={`Remove tag ${tag}`} disabled={setTags.isPending} onClick={() => save(task.tags.filter((t) => t !== tag))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <FormError error={setTags.error} fields={['tags']} />
    </div>
  );
}

function BlockersEditor({ task }: { task: TaskDetail }) {
  const setBlockers = useSetBlockers(task.id);
  const [draft, setDraft] = useState('');
  const ids = task.blockers.map((b) => b.id);
  const max = LIMITS.TaskBlockersBody.blockedByTaskIds.maxItems;
  const save = (next: string[]) => setBlockers.mutate(next, { onSuccess: () => setDraft('') });
  return (
    <div className="task-field">
      <Field label="Waits on" hint={`Task ids, at most ${max}. The desk skips this task until they are done.`} error={fieldError(setBlockers.error, 'blockedByTaskIds')}>
        {(control) => (
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              const id = draft.trim();
              if (id && !ids.includes(id)) save([...ids, id]);
            }}
          >
            <input {...control} className="input" placeholder="tsk_…" value={draft} onChange={(e) => setDraft(e.target.value)} />
            <button type="submit" className="button button--secondary button--small" disabled={setBlockers.isPending || !draft.trim() || ids.length >= max}>
              Add blocker
            </button>
          </form>
        )}
      </Field>
      <ul className="task-blockers" aria-label="Blockers">
        {task.blockers.map((b) => (
          <li key={b.id}>
            <Link to="/tasks/$taskId" params={{ taskId: b.id }}>
              {b.title}
            </Link>{' '}
            <span className="muted small">{statusLabel(b.status)}</span>
            <button type="button" className="link-button small" aria-label={`Remove blocker ${b.title}`} disabled={setBlockers.isPending} onClick={() => save(ids.filter((x) => x !== b.id))}>
              remove
            </button>
          </li>
        ))}
      </ul>
      <FormError error={setBlockers.error} fields={['blockedByTaskIds']} />
    </div>
  );
}

/** The task's state the operator steers: status, assignee, tags, blockers. */
function PinField({ task }: { task: TaskDetail }) {
  const setPinned = useSetPinned(task.id);
  return (
    <div className="task-field">
      <label className="checkbox">
        <input type="checkbox" checked={task.pinned} disabled={setPinned.isPending} onChange={(e) => setPinned.mutate(e.target.checked)} />
        Pinned: never listed as stale or auto-archived
      </label>
      <FormError error={setPinned.error} />
    </div>
  );
}

export function TaskFields({ task }: { task: TaskDetail }) {
  return (
    <section className="card card--padded task-fields" aria-labelledby="task-fields-title">
      <h2 className="card__title" id="task-fields-title">
        Details
      </h2>
      <StatusField task={task} />
      <AssigneeField task={task} />
      <PinField task={task} />
      <TagsEditor task={task} />
      <BlockersEditor task={task} />
    </section>
  );
}
