import { useState } from 'react';
import { LIMITS } from '../../../api/rules.gen';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { SelectAllCheckbox } from '../../../components/SelectAllCheckbox';
import { plural } from '../../../lib/format';
import { useBulkMemory, type MemoryBulkBody } from '../api';

/** The API takes this many ids per bulk call at most. */
const MAX_BULK_IDS = LIMITS.MemoryBulkBody.memoryIds.maxItems;

const done: Record<MemoryBulkBody['action'], string> = { delete: 'Deleted', pin: 'Pinned', tag: 'Tagged', untag: 'Untagged' };

/** Pin, unpin, tag, untag or delete the selected entries (the first 50). */
export function MemoryBulkBar({ total, selected, onClear, onSelectAll }: { total: number; selected: string[]; onClear: () => void; onSelectAll: (on: boolean) => void }) {
  const bulk = useBulkMemory();
  const [tag, setTag] = useState('');
  const [result, setResult] = useState('');
  const ids = selected.slice(0, MAX_BULK_IDS);
  const run = (body: Omit<MemoryBulkBody, 'memoryIds'>) =>
    bulk.mutate(
      { ...body, memoryIds: ids },
      {
        onSuccess: (r) => {
          const verb = body.action === 'pin' && body.pinned === false ? 'Unpinned' : done[body.action];
          const skipped = r.skipped.length ? ` ${plural(r.skipped.length, 'entry', 'entries')} already had the most tags.` : '';
          setResult(`${verb} ${plural(r.affected, 'entry', 'entries')}.${skipped}`);
          if (body.action === 'delete') onClear();
        },
      },
    );
  const none = !ids.length || bulk.isPending;
  return (
    <div className="bulk-bar card" role="toolbar" aria-label="Bulk actions">
      <label className="checkbox bulk-bar__all">
        <SelectAllCheckbox total={total} selected={selected.length} onChange={onSelectAll} />
        <span className="bulk-bar__count">{selected.length ? `${selected.length} selected` : 'Select all'}</span>
      </label>
      <button type="button" className="button button--secondary button--small" disabled={none} onClick={() => run({ action: 'pin', pinned: true })}>
        Pin selected
      </button>
      <button type="button" className="button button--secondary button--small" disabled={none} onClick={() => run({ action: 'pin', pinned: false })}>
        Unpin selected
      </button>
      <input className="input input--small" aria-label="Tag for the selected entries" placeholder="tag" value={tag} maxLength={LIMITS.MemoryBulkBody.tag.maxLength} onChange={(e) => setTag(e.target.value)} />
      <button type="button" className="button button--secondary button--small" disabled={none || !tag.trim()} onClick={() => run({ action: 'tag', tag: tag.trim().toLowerCase() })}>
        Tag
      </button>
      <button type="button" className="button button--secondary button--small" disabled={none || !tag.trim()} onClick={() => run({ action: 'untag', tag: tag.trim().toLowerCase() })}>
        Untag
      </button>
      <ConfirmButton label="Delete selected" question={`Delete ${plural(ids.length, 'entry', 'entries')}? This cannot be undone.`} confirmLabel="Delete" disabled={none} onConfirm={() => run({ action: 'delete' })} />
      <span className="bulk-bar__result" role="status" aria-live="polite">
        {bulk.error ? <span className="text-danger">{bulk.error.message}</span> : selected.length > MAX_BULK_IDS ? `Bulk actions apply to the first ${MAX_BULK_IDS} selected.` : result}
      </span>
    </div>
  );
}
