import { formatDateTime, formatRelative } from '../../../lib/format';
import { useImportFile, usePollNow, useSetSourcePause, type PollOutcome, type QuietSource, type Source } from '../api';
import { formatCadence, formatNextPoll, formatQuiet, formatShortDateTime, isFeedType, statusBadge, typeLabel } from '../format';
import { Badge } from '../../../components/Badge';
import { SourceEditor } from './SourceEditor';

export const SOURCE_COLUMNS = 5;

function pollMessage(o: PollOutcome): string {
  if (o.result === 'failed') return `Poll failed: ${o.error ?? 'unknown error'}`;
  if (o.result === 'skipped') return 'Skipped: the source was paused or deleted meanwhile';
  if (o.notModified) return 'Polled: the feed has not changed';
  const parts = [`${o.created} new ${o.created === 1 ? 'signal' : 'signals'}`];
  if (o.duplicates) parts.push(`${o.duplicates} already seen`);
  if (o.filtered) parts.push(`${o.filtered} filtered out`);
  return `Polled: ${parts.join(', ')}`;
}

/** One source in the table, with its quick actions; "Manage" opens its editor in a row below. */
export function SourceRow({
  source,
  quiet,
  selected,
  onSelect,
  expanded,
  onToggle,
}: {
  source: Source;
  quiet: QuietSource | undefined;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  expanded: boolean;
  onToggle: () => void;
}) {
  const poll = usePollNow();
  const importFile = useImportFile();
  const resume = useSetSourcePause();
  const badge = statusBadge(source, (iso) => formatShortDateTime(iso));
  const feed = isFeedType(source.type);
  const editorId = `source-editor-${source.id}`;
  const message = poll.isPending
    ? 'Polling…'
    : poll.error
      ? poll.error.message
      : poll.data
        ? pollMessage(poll.data.outcome)
        : importFile.isPending
          ? 'Importing…'
          : importFile.error
            ? importFile.error.message
            : importFile.data
              ? `Imported ${importFile.data.imported} new, ${importFile.data.duplicates} already there${importFile.data.invalidCount ? `, ${importFile.data.invalidCount} invalid` : ''}`
              : resume.error
                ? resume.error.message
                : '';
  const failed = Boolean(poll.error || importFile.error || resume.error || poll.data?.outcome.result === 'failed');

  return (
    <>
      <tr className={selected ? 'is-selected' : undefined}>
        <td className="table__check">
          <input type="checkbox" aria-label={`Select ${source.label}`} checked={selected} onChange={(e) => onSelect(e.target.checked)} />
        </td>
        <td className="source-cell">
          <span className="source-cell__label">{source.label}</span>
          <span className="source-cell__meta">
            <span className="type-chip">{typeLabel(source.type)}</span>
            {source.url ? (
              <span className="source-cell__url" title={source.url}>
                {source.url}
              </span>
            ) : null}
          </span>
        </td>
        <td>
          <div className="badge-stack">
            <Badge tone={badge.tone} title={source.pausedUntilAt ? formatDateTime(source.pausedUntilAt, true) : undefined}>
              {badge.text}
            </Badge>
            {quiet && !quiet.acked ? (
              <Badge tone="warning" title={formatQuiet(quiet.quietForDays, quiet.floorDays)}>
                Quiet {quiet.quietForDays} d
              </Badge>
            ) : null}
          </div>
          <p className="cell-sub" title={source.lastSyncedAt ? formatDateTime(source.lastSyncedAt, true) : undefined}>
            {source.lastSyncedAt ? (
              <>
                Synced <time dateTime={source.lastSyncedAt}>{formatRelative(source.lastSyncedAt)}</time>
              </>
            ) : feed || source.type === 'file' ? (
              'Never synced'
            ) : null}
          </p>
          {source.lastErrorMessage ? (
            <p className="cell-error" title={source.lastErrorMessage}>
              {source.lastErrorMessage}
              {source.consecutiveFailures > 1 ? ` (${source.consecutiveFailures} failures in a row)` : ''}
            </p>
          ) : null}
        </td>
        <td className="nowrap">
          <span title={source.pollGating?.nextPollAt ? formatDateTime(source.pollGating.nextPollAt, true) : undefined}>{formatNextPoll(source.pollGating, source.paused)}</span>
          <p className="cell-sub">{formatCadence(source.pollGating)}</p>
        </td>
        <td className="row-actions">
          <div className="row-actions__buttons">
            {feed && source.paused ? (
              <button type="button" className="button button--secondary button--small" disabled={resume.isPending} onClick={() => resume.mutate({ id: source.id, pausedUntilAt: null })}>
                Resume
              </button>
            ) : null}
            {feed && !source.paused ? (
              <button type="button" className="button button--secondary button--small" disabled={poll.isPending} onClick={() => poll.mutate(source.id)}>
                Poll now
              </button>
            ) : null}
            {source.type === 'file' ? (
              <button type="button" className="button button--secondary button--small" disabled={importFile.isPending} onClick={() => importFile.mutate(source.id)}>
                Import now
              </button>
            ) : null}
            <button type="button" className="button button--ghost button--small" aria-expanded={expanded} aria-controls={editorId} onClick={onToggle}>
              {expanded ? 'Close' : 'Manage'}
            </button>
          </div>
          <p className={`row-actions__status${failed ? ' is-error' : ''}`} role="status" aria-live="polite">
            {message}
          </p>
        </td>
      </tr>
      {expanded ? (
        <tr className="detail-row" id={editorId}>
          <td colSpan={SOURCE_COLUMNS}>
            <SourceEditor source={source} onDeleted={onToggle} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
