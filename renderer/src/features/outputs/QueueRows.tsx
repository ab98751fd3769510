import { Link } from '@tanstack/react-router';
import type { MutableRefObject } from 'react';
import { formatDateTime, formatRelative } from '../../lib/format';
import { OutputBadges } from './OutputBadges';
import type { QueueRow } from './api';

/**
 * The queue's rows: one selected (aria-current), whose title alone is in the tab order (a roving
 * tabindex, so Tab leaves the list in one step and j/k move inside it); focusing or clicking a row
 * selects it.
 */
export function QueueRows({ rows, selectedId, onSelect, rowRefs }: { rows: readonly QueueRow[]; selectedId: string | null; onSelect: (id: string) => void; rowRefs: MutableRefObject<Map<string, HTMLLIElement>> }) {
  return (
    <ul className="output-list" aria-label="Outputs">
      {rows.map((o) => (
        <li
          key={o.id}
          ref={(el) => {
            if (el) rowRefs.current.set(o.id, el);
            else rowRefs.current.delete(o.id);
          }}
          className={`output-item lazy-row${o.id === selectedId ? ' is-selected' : ''}`}
          aria-current={o.id === selectedId ? 'true' : undefined}
          onClick={() => onSelect(o.id)}
          onFocus={() => onSelect(o.id)}
        >
          <div className="output-item__head">
            <Link className="output-item__title" to="/outputs/$artifactId" params={{ artifactId: o.id }} tabIndex={o.id === selectedId ? 0 : -1}>
              {o.title}
            </Link>
            <OutputBadges output={o} />
          </div>
          <div className="output-item__meta muted small">
            {o.status === 'ready' ? (
              <>
                <span>{o.reviewOwner ? `owner ${o.reviewOwner.name}` : 'no owner'}</span>
                {o.reviewOwnerCapacity ? <span>{o.reviewOwnerCapacity.availability === 'away' ? 'owner away' : `${o.reviewOwnerCapacity.load} on their plate`}</span> : null}
              </>
            ) : o.decidedAt ? (
              <span title={formatDateTime(o.decidedAt)}>decided {formatRelative(o.decidedAt)}</span>
            ) : null}
            {o.version > 1 ? <span>v{o.version}{o.authorKind === 'member' ? `, edited by ${o.authorName ?? 'a member'}` : ''}</span> : null}
            {o.taskId ? (
              <span>
                for{' '}
                <Link to="/tasks/$taskId" params={{ taskId: o.taskId }}>
                  {o.taskTitle ?? o.taskId}
                </Link>
              </span>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
