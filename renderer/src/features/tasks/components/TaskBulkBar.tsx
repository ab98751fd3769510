import { useState } from 'react';
import { LIMITS, TASK_PRIORITY } from '../../../api/rules.gen';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { SelectAllCheckbox } from '../../../components/SelectAllCheckbox';
import { plural } from '../../../lib/format';
import { useBulkTasks, type Task, type TaskBulkBody } from '../api';

/** The API takes this many ids per bulk call at most. */
const MAX_BULK_IDS = LIMITS.TaskBulkBody.taskIds.maxItems;

const DONE: Record<TaskBulkBody['action'], string> = { delete: 'Deleted', priority: 'Re-prioritised', tag: 'Tagged', untag: 'Untagged' };

/** Select-all and the bulk actions of the queue: delete, priority, tag, untag. */
export function TaskBulkBar({ tasks, selected, onClear, onSelectAll }: { tasks: Task[]; selected: string[]; onClear: () => void; onSelectAll: (on: boolean) => void }) {
  const bulk = useBulkTasks();
  const [result, setResult] = useState('');
  const [priority, setPriority] = useState('');
  const [tag, setTag] = useState('');
  const ids = selected.slice(0, MAX_BULK_IDS);
  const busy = !ids.length || bulk.isPending;
  const run = (body: Omit<TaskBulkBody, 'taskIds'>) =>
    bulk.mutate(
      { ...body, taskIds: ids },
      {
        onSuccess: (r) => {
          const extra = [r.unchanged.length ? `${r.unchanged.length} unchanged` : '', r.skipped.length ? `${r.skipped.length} skipped` : ''].filter(Boolean).join(', ');
          setResult(`${DONE[r.action]} ${plural(r.affected, 'task')}.${extra ? ` (${extra})` : ''}`);
          if (body.action === 'delete') onClear();
        },
      },
    );
  return (
    <div className="bulk-bar card" role="toolbar" aria-label="Bulk actions">
      <label className="checkbox bulk-bar__all">
        <SelectAllCheckbox total={tasks.length} selected={selected.length} onChange={onSelectAll} />
        <span className="bulk-bar__count">{selected.length ? `${selected.length} selected` : 'Select all'}</span>
      </label>
      <span className="task-bulk__group">
        <select className="input input--select" aria-label="Bulk priority" value={priority} onChange={(e) => setPriority(e.target.value)}>
          <option value="">No priority</option>
          {TASK_PRIORITY.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
        <button type="button" className="button button--secondary button--small" disabled={busy} onClick={() => run({ action: 'priority', priority: (priority || null) as TaskBulkBody['priority'] })}>
          Set priority
        </button>
      </span>
      <span className="task-bulk__group">
        <input className="input task-bulk__tag" aria-label="Bulk tag" placeholder="tag" value={tag} maxLength={LIMITS.TaskBulkBody.tag.maxLength} onChange={(e) => setTag(e.target.value)} />
        <button type="button" className="button button--secondary button--small" disabled={busy || !tag.trim()} onClick={() => run({ action: 'tag', tag: tag.trim() })}>
          Tag
        </button>
        <button type="button" className="button button--secondary button--small" disabled={busy || !tag.trim()} onClick={() => run({ action: 'untag', tag: tag.trim() })}>
          Untag
        </button>
      </span>
      <ConfirmButton
        label="Delete selected"
        question={`Delete ${plural(ids.length, 'task')}? This cannot be undone.`}
        confirmLabel="Delete"
        disabled={busy}
        onConfirm={() => run({ action: 'delete' })}
      />
      <span className="bulk-bar__result" role="status" aria-live="polite">
        {bulk.error ? <span className="text-danger">{bulk.error.message}</span> : selected.length > MAX_BULK_IDS ? `Bulk actions apply to the first ${MAX_BULK_IDS} selected.` : result}
      </span>
    </div>
  );
}
