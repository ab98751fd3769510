import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../../components/Page';
import { Section } from '../../../components/Section';
import { formatDateTime, formatDuration, formatRelative } from '../../../lib/format';
import { cadenceOverviewQuery } from '../api';
import { formatCadence, formatNextPoll, typeLabel } from '../format';

/** When each feed is polled next, soonest first, with the workspace cadence and the plan's floor. */
export function CadenceOverviewSection() {
  const overview = useQuery(cadenceOverviewQuery());
  const data = overview.data;
  return (
    <Section
      id="cadence"
      title="Cadence overview"
      description={
        data ? (
          <>
            Workspace cadence: every <strong>{formatDuration(data.workspaceCadenceMinutes)}</strong>. Plan floor: <strong>{formatDuration(data.planFloorMinutes)}</strong> on{' '}
            {data.plan}; no feed is polled more often than that, whatever its own cadence.
          </>
        ) : (
          'When each feed is polled next.'
        )
      }
    >
      <QueryState isPending={overview.isPending} error={overview.error} onRetry={() => void overview.refetch()} />
      {data ? (
        data.perSource.length === 0 ? (
          <p className="muted section-empty">No feed sources yet. Manual and file sources are never polled.</p>
        ) : (
          <table className="table table--compact" aria-label="Cadence overview">
            <thead>
              <tr>
                <th scope="col">Feed</th>
                <th scope="col">Cadence</th>
                <th scope="col">Effective</th>
                <th scope="col">Next poll</th>
                <th scope="col">Last synced</th>
              </tr>
            </thead>
            <tbody>
              {data.perSource.map((r) => (
                <tr key={r.sourceId}>
                  <td>
                    {r.label} <span className="type-chip">{typeLabel(r.type)}</span>
                  </td>
                  <td className="nowrap">{formatCadence(r)}</td>
                  <td className="nowrap">every {formatDuration(r.intervalMinutes)}</td>
                  <td className={`nowrap${r.isDueNow ? ' text-accent' : ''}`} title={r.nextPollAt ? formatDateTime(r.nextPollAt, true) : undefined}>
                    {formatNextPoll(r, r.paused)}
                  </td>
                  <td className="nowrap muted">{r.lastSyncedAt ? formatRelative(r.lastSyncedAt) : 'never'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </Section>
  );
}
