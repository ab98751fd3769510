import { useState } from 'react';
import { now } from '../../../lib/clock';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { Badge } from '../../../components/Badge';
import { ReactionBar } from '../../../components/ReactionBar';
import { useBulkSignals, useReact, type Signal } from '../api';
import { linkHost, originLabel, priorityTone, publishedText, trimText } from '../format';

const DETAIL_CHARS = 280;

/**
 * One signal: what, where from, when; pin, reactions, selection for bulk actions. `level` is its
 * title's heading level: 2 in the page's list, 3 inside a section with its own h2.
 */
export function SignalItem({ signal, selected, onSelect, focused = false, level = 2 }: { signal: Signal; selected: boolean; onSelect: (on: boolean) => void; focused?: boolean; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const react = useReact();
  const pin = useBulkSignals();
  const [expanded, setExpanded] = useState(false);
  const detail = trimText(signal.detail, DETAIL_CHARS);
  const titleId = `signal-${signal.id}-title`;
  return (
    <li className={`signal lazy-row${signal.pinned ? ' is-pinned' : ''}${selected ? ' is-selected' : ''}${focused ? ' is-focused' : ''}`} aria-labelledby={titleId} aria-current={focused ? 'true' : undefined}>
      <input className="signal__check" type="checkbox" aria-label={`Select ${signal.title}`} checked={selected} onChange={(e) => onSelect(e.target.checked)} />
      <div className="signal__body">
        <div className="signal__head">
          <Heading className="signal__title" id={titleId}>
            {signal.title}
          </Heading>
          <div className="signal__badges">
            <span className="type-chip" title="Kind">
              {signal.kind}
            </span>
            <Badge tone={priorityTone(signal.priority)} title="Priority">
              {signal.priority}
            </Badge>
          </div>
        </div>
        {detail.text ? (
          <p className="signal__detail">
            {expanded ? signal.detail : detail.text}
            {detail.trimmed ? (
              <button type="button" className="link-button" onClick={() => setExpanded((v) => !v)}>
                {expanded ? 'Show less' : 'Show more'}
              </button>
            ) : null}
          </p>
        ) : null}
        <div className="signal__foot">
          <p className="signal__meta">
            <span title={signal.sourceId ? undefined : 'Added by hand or pushed through the inbound webhook'}>{originLabel(signal)}</span>
            <span aria-hidden="true"> · </span>
            {signal.publishedAt ? (
              // A feed item shows its own date first (the list is ordered by it); when Desk received it comes second.
              <>
                <time dateTime={signal.publishedAt} title={`Published ${formatDateTime(signal.publishedAt, true)}`}>
                  {publishedText(signal.publishedAt, now())}
                </time>
                <span aria-hidden="true"> · </span>
                <span className="signal__received">
                  received{' '}
                  <time dateTime={signal.createdAt} title={`Received ${formatDateTime(signal.createdAt, true)}`}>
                    {formatRelative(signal.createdAt)}
                  </time>
                </span>
              </>
            ) : (
              <time dateTime={signal.createdAt} title={formatDateTime(signal.createdAt, true)}>
                {formatRelative(signal.createdAt)}
              </time>
            )}
            {signal.sourceUrl ? (
              <>
                <span aria-hidden="true"> · </span>
                <a href={signal.sourceUrl} target="_blank" rel="noopener noreferrer" title={signal.sourceUrl}>
                  {linkHost(signal.sourceUrl)} ↗
                </a>
              </>
            ) : null}
          </p>
          <div className="signal__actions">
            <ReactionBar reactions={signal.reactions} onReact={(emoji) => react.mutate({ id: signal.id, emoji })} pending={react.isPending} error={react.error} />
            <button
              type="button"
              className={`button button--small ${signal.pinned ? 'button--secondary' : 'button--ghost'}`}
              aria-pressed={signal.pinned}
              title={signal.pinned ? 'Unpin' : 'Pin to keep it in sight'}
              disabled={pin.isPending}
              onClick={() => pin.mutate({ action: 'pin', signalIds: [signal.id], pinned: !signal.pinned })}
            >
              {signal.pinned ? 'Pinned' : 'Pin'}
            </button>
          </div>
        </div>
        {pin.error ? <p className="inline-error">{pin.error.message}</p> : null}
      </div>
    </li>
  );
}
