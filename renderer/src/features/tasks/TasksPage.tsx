import { ClosableCard } from '../../components/ClosableCard';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ACTIVE_WORK_SORT, TASK_STATUS } from '../../api/rules.gen';
import { useCursorList } from '../../api/cursor-list';
import { Badge } from '../../components/Badge';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { LoadMore } from '../../components/LoadMore';
import { PageHeader, QueryState } from '../../components/Page';
import { formatDateTime, formatRelative, plural } from '../../lib/format';
import { useDebounced } from '../../lib/use-debounced';
import { useSelection } from '../../lib/use-selection';
import { ACTIVE_WORK_SORT_LABELS } from '../preferences/sort-tasks';
import { useDashboardPrefs, type PrefsChange } from '../preferences/use-dashboard-prefs';
import { tasksList, type Task, type TaskStatus } from './api';
import { NewTaskForm } from './components/NewTaskForm';
import { TaskBulkBar } from './components/TaskBulkBar';
import { priorityTone, statusLabel, statusTone } from './format';
import './tasks.css';

/** The statuses shown when none is picked: the API's default (every status but archived). */
const DEFAULT_STATUSES = TASK_STATUS.filter((s) => s !== 'archived');

function StatusFilter({ value, onChange }: { value: readonly TaskStatus[]; onChange: (next: TaskStatus[]) => void }) {
  return (
    <fieldset className="task-status-filter">
      <legend className="field__label">Status</legend>
      {TASK_STATUS.map((s) => (
        <label key={s} className="checkbox">
          <input
            type="checkbox"
            checked={value.includes(s)}
            onChange={(e) => onChange(e.target.checked ? TASK_STATUS.filter((x) => x === s || value.includes(x)) : value.filter((x) => x !== s))}
          />
          {statusLabel(s)}
        </label>
      ))}
    </fieldset>
  );
}

function TaskItem({ task, selected, onSelect }: { task: Task; selected: boolean; onSelect: (on: boolean) => void }) {
  return (
    <li className={`task-item lazy-row${selected ? ' is-selected' : ''}`}>
      <input className="signal__check" type="checkbox" aria-label={`Select ${task.title}`} checked={selected} onChange={(e) => onSelect(e.target.checked)} />
      <div className="row-body">
        <div className="row-head">
          <Link className="task-item__title" to="/tasks/$taskId" params={{ taskId: task.id }}>
            {task.title}
          </Link>
          <div className="task-item__badges">
            <Badge tone={statusTone(task.status)} title="Status">
              {statusLabel(task.status)}
            </Badge>
            {task.priority ? (
              <Badge tone={priorityTone(task.priority)} title="Priority">
                {task.priority}
              </Badge>
            ) : null}
            {task.blocked ? <Badge tone="warning">blocked</Badge> : null}
            {task.kind ? <span className="type-chip">{task.kind}</span> : null}
          </div>
        </div>
        <p className="task-item__summary muted small">{task.summary}</p>
        <p className="task-item__meta muted small">
          {task.tags.map((t) => (
            <span key={t} className="task-tag">
              {t}
            </span>
          ))}
          {task.dueAt ? <span>due {formatDateTime(task.dueAt)}</span> : null}
          <span title={formatDateTime(task.updatedAt)}>updated {formatRelative(task.updatedAt)}</span>
        </p>
      </div>
    </li>
  );
}

/** The task queue: status filter, new task (blank or from a template), bulk actions; each row opens /tasks/<id>. */
export function TasksPage() {
  const navigate = useNavigate();
  const [statuses, setStatuses] = useState<TaskStatus[]>([]);
  const [tagText, setTagText] = useState('');
  const tag = useDebounced(tagText.trim().toLowerCase());
  const [adding, setAdding] = useState(false);
  // The member's active-work order (dashboard preference), applied by the API across every page.
  const { prefs, update } = useDashboardPrefs();
  const list = useCursorList(tasksList({ statuses, tag, sort: prefs.activeWorkSort }));
  const tasks = list.items;
  const { isPicked, selected, select, selectAll, clear } = useSelection(tasks);
  const shown = statuses.length ? statuses : DEFAULT_STATUSES;

  return (
    <div className="page">
      <PageHeader
        title="Tasks"
        description="The queue the desk works through, in the order you pick. Open a task to steer it with notes and comments."
        actions={
          adding ? null : (
            <button type="button" className="button" onClick={() => setAdding(true)}>
              New task
            </button>
          )
        }
      />
      <div className="stack">
        {adding ? (
          <ClosableCard title={'New task'} onClose={() => setAdding(false)}>
            <NewTaskForm onDone={(task) => void navigate({ to: '/tasks/$taskId', params: { taskId: task.id } })} />
          </ClosableCard>
        ) : null}

        <div className="filters card card--padded" role="search">
          <StatusFilter
            value={statuses}
            onChange={(next) => {
              setStatuses(next);
              clear();
            }}
          />
          <Field label="Tag" hint="Only tasks carrying this tag" error={fieldError(list.error, 'tag')}>
            {(control) => (
              <input
                {...control}
                className="input"
                type="search"
                value={tagText}
                placeholder="e.g. support"
                onChange={(e) => {
                  setTagText(e.target.value);
                  clear();
                }}
              />
            )}
          </Field>
          <Field label="Sort" hint={prefs.activeWorkSort === 'smart' ? 'Open work first, focus tags, priority, oldest' : undefined}>
            {(control) => (
              <select {...control} className="input input--select" value={prefs.activeWorkSort} onChange={(e) => void update({ activeWorkSort: e.target.value as PrefsChange['activeWorkSort'] })}>
                {ACTIVE_WORK_SORT.map((s) => (
                  <option key={s} value={s}>
                    {ACTIVE_WORK_SORT_LABELS[s]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <p className="filters__summary muted small" aria-live="polite">
            {list.data ? `${plural(tasks.length, 'task')}${list.hasNextPage ? ' shown' : ''} · ${shown.map(statusLabel).join(', ')}${tag ? ` · tagged ${tag}` : ''}${list.isFetching && !list.isFetchingNextPage ? ' · refreshing…' : ''}` : ''}
          </p>
        </div>

        {list.isPending ? <QueryState isPending error={null} /> : null}
        {list.error && !list.isFetchNextPageError ? <FormError error={list.error} /> : null}

        {list.data ? (
          tasks.length === 0 ? (
            <div className="card card--padded empty">
              <p>{statuses.length || tag ? 'No tasks match these filters.' : 'No tasks yet.'}</p>
              <p className="muted small">Create one with New task; the desk also adds tasks as it works from signals.</p>
            </div>
          ) : (
            <>
              <TaskBulkBar tasks={tasks} selected={selected} onClear={clear} onSelectAll={selectAll} />
              <ul className="task-list" aria-label="Tasks">
                {tasks.map((t) => (
                  <TaskItem key={t.id} task={t} selected={isPicked(t.id)} onSelect={(on) => select(t.id, on)} />
                ))}
              </ul>
              <LoadMore list={list} end="That is all of them." />
            </>
          )
        ) : null}
      </div>
    </div>
  );
}
