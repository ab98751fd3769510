import { Link } from '@tanstack/react-router';
import { Badge } from '../../../components/Badge';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { ReactionBar } from '../../../components/ReactionBar';
import { formatDateTime, formatRelative, plural } from '../../../lib/format';
import { useBulkMemory, useDeleteMemory, useReactToMemory, type MemoryEntry } from '../api';
import { formatUsd } from '../../../lib/format';
import { TrajectoryCharts } from './MemoryCharts';

/** What cycles did with the entry: retrievals, last use and attributed cost, in words. */
export function UsageLine({ entry }: { entry: MemoryEntry }) {
  return (
    <p className="memory-item__usage muted small">
      <span>{plural(entry.retrievals7d, 'retrieval')} in 7 days</span>
      <span>{plural(entry.retrievalCount, 'retrieval')} in all</span>
      <span title={entry.lastRetrievedAt ? formatDateTime(entry.lastRetrievedAt) : undefined}>{entry.lastRetrievedAt ? `last used ${formatRelative(entry.lastRetrievedAt)}` : 'never used'}</span>
      <span title={`${entry.totalAttributedInputTokens} input and ${entry.totalAttributedOutputTokens} output tokens`}>{formatUsd(entry.estimatedCostUsd)} attributed</span>
    </p>
  );
}

export function MemoryTags({ tags }: { tags: readonly string[] }) {
  if (!tags.length) return null;
  return (
    <span className="memory-tags">
      {tags.map((t) => (
        <span key={t} className="memory-tag">
          {t}
        </span>
      ))}
    </span>
  );
}

/** One entry of the list: its fields, usage, reactions, pin and delete; opened (its URL), it shows its usage charts. */
export function MemoryItem({ entry, selected, onSelect, open }: { entry: MemoryEntry; selected: boolean; onSelect?: (on: boolean) => void; open: boolean }) {
  const bulk = useBulkMemory();
  const remove = useDeleteMemory();
  const react = useReactToMemory();
  const error = bulk.error ?? remove.error;
  return (
    <li className={`memory-item${entry.pinned ? ' is-pinned' : ''}${selected ? ' is-selected' : ''}${open ? ' is-open' : ''}`} aria-label={entry.title}>
      {onSelect ? <input className="memory-item__check" type="checkbox" aria-label={`Select ${entry.title}`} checked={selected} onChange={(e) => onSelect(e.target.checked)} /> : null}
      <div className="row-body">
        <div className="row-head">
          <Link className="memory-item__title" to={open ? '/memory' : '/memory/$memoryId'} params={open ? {} : { memoryId: entry.id }} aria-expanded={open}>
            {entry.title}
          </Link>
          <div className="memory-item__badges">
            {entry.pinned ? <Badge tone="info">pinned</Badge> : null}
            {entry.importance !== null ? (
              <Badge tone={entry.importance >= 9 ? 'warning' : 'neutral'} title="Importance (0-10)">
                importance {entry.importance}
              </Badge>
            ) : null}
            <span className="type-chip">{entry.kind}</span>
          </div>
        </div>
        <p className="memory-item__content">{entry.content}</p>
        <MemoryTags tags={entry.tags} />
        <UsageLine entry={entry} />
        <div className="memory-item__actions">
          <ReactionBar reactions={entry.reactions} pending={react.isPending} error={react.error} onReact={(emoji) => react.mutate({ id: entry.id, emoji })} />
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={bulk.isPending}
            onClick={() => bulk.mutate({ action: 'pin', memoryIds: [entry.id], pinned: !entry.pinned })}
          >
            {entry.pinned ? 'Unpin' : 'Pin'}
          </button>
          <ConfirmButton label="Delete" question={`Delete “${entry.title}”? This cannot be undone.`} confirmLabel="Delete entry" disabled={remove.isPending} onConfirm={() => remove.mutate(entry.id)} />
          {error ? <span className="inline-error">{error.message}</span> : null}
        </div>
        {open ? <TrajectoryCharts memoryId={entry.id} /> : null}
      </div>
    </li>
  );
}
