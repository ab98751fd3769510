import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../../components/Page';
import { Section } from '../../../components/Section';
import { ActionsHeader, RowActions } from '../../../components/Table';
import { formatDateTime } from '../../../lib/format';
import { scheduledPausedQuery, useSetSourcePause, type ScheduledPauseRow } from '../api';
import { formatResumesIn, typeLabel } from '../format';

function PausedRow({ row }: { row: ScheduledPauseRow }) {
  const resume = useSetSourcePause();
  return (
    <tr>
      <td>
        {row.label} <span className="type-chip">{typeLabel(row.type)}</span>
      </td>
      <td className="nowrap">{formatDateTime(row.pausedUntilAt, true)}</td>
      <td className="nowrap muted">{formatResumesIn(row.hoursUntilResume)}</td>
      <RowActions error={resume.error}>
        <button type="button" className="button button--secondary button--small" disabled={resume.isPending} onClick={() => resume.mutate({ id: row.sourceId, pausedUntilAt: null })}>
          Resume now
        </button>
      </RowActions>
    </tr>
  );
}

/** Sources paused until a set time, soonest to resume first. */
export function ScheduledPausesSection() {
  const list = useQuery(scheduledPausedQuery());
  return (
    <Section id="scheduled-pauses" title="Scheduled pauses" description="Sources paused until a set time resume by themselves; set one from a source's Manage panel.">
      <QueryState isPending={list.isPending} error={list.error} onRetry={() => void list.refetch()} />
      {list.data ? (
        list.data.sources.length === 0 ? (
          <p className="muted section-empty">No scheduled pauses.</p>
        ) : (
          <table className="table table--compact" aria-label="Scheduled pauses">
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Paused until</th>
                <th scope="col">Resumes</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {list.data.sources.map((r) => (
                <PausedRow key={r.sourceId} row={r} />
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </Section>
  );
}
