import { useQuery } from '@tanstack/react-query';
import { FormError } from '../../../components/FormError';
import { QueryState } from '../../../components/Page';
import { Section } from '../../../components/Section';
import { ActionsHeader, RowActions } from '../../../components/Table';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { quietnessQuery, useQuietnessAck, type QuietSource } from '../api';
import { formatQuiet, typeLabel } from '../format';
import { Badge } from '../../../components/Badge';
import { LIMITS } from '../../../api/rules.gen';

function QuietRow({ q }: { q: QuietSource }) {
  const ack = useQuietnessAck();
  return (
    <tr className={q.acked ? 'is-muted' : undefined}>
      <td>
        {q.label} <span className="type-chip">{typeLabel(q.type)}</span>
      </td>
      <td>
        <Badge tone={q.acked ? 'neutral' : 'warning'}>{formatQuiet(q.quietForDays, q.floorDays)}</Badge>
      </td>
      <td className="nowrap muted" title={q.lastSignalAt ? formatDateTime(q.lastSignalAt, true) : `Added ${formatDateTime(q.quietSince, true)}`}>
        {q.lastSignalAt ? formatRelative(q.lastSignalAt) : 'never'}
      </td>
      <td className="nowrap">
        {q.acked && q.quietnessAckExpiresAt ? <span className="muted small">Muted until {formatDateTime(q.quietnessAckExpiresAt)}</span> : null}
      </td>
      <RowActions error={ack.error}>
        {q.acked ? (
          <button type="button" className="button button--ghost button--small" disabled={ack.isPending} onClick={() => ack.mutate({ sourceIds: [q.sourceId], ack: false })}>
            Unack
          </button>
        ) : (
          <button type="button" className="button button--secondary button--small" disabled={ack.isPending} onClick={() => ack.mutate({ sourceIds: [q.sourceId], ack: true })}>
            Ack
          </button>
        )}
      </RowActions>
    </tr>
  );
}

/** Feeds that poll fine but bring nothing: a warning per feed, muted for a week by an ack. */
export function QuietnessSection() {
  const report = useQuery(quietnessQuery());
  const ackAll = useQuietnessAck();
  const data = report.data;
  const unacked = (data?.sources ?? []).filter((q) => !q.acked).map((q) => q.sourceId);
  return (
    <Section
      id="quietness"
      title="Quiet feeds"
      description={
        data
          ? `A feed that polls fine but has brought no signal for longer than its floor (${data.cadenceFloorDays} days at the workspace cadence, or twice its own cadence, at most ${data.maxFloorDays}) may be dead or filtered too hard. Ack mutes the warning for ${data.ackDays} days; a new signal ends the ack.`
          : 'Feeds that have gone quiet.'
      }
    >
      <QueryState isPending={report.isPending} error={report.error} onRetry={() => void report.refetch()} />
      {data ? (
        data.sources.length === 0 ? (
          <p className="muted section-empty">No quiet feeds: every feed has brought a signal within its floor.</p>
        ) : (
          <>
            {unacked.length > 1 ? (
              <div className="actions section-actions">
                <button type="button" className="button button--secondary button--small" disabled={ackAll.isPending} onClick={() => ackAll.mutate({ sourceIds: unacked.slice(0, LIMITS.SourceIdsBody.sourceIds.maxItems), ack: true })}>
                  Ack all {unacked.length}
                </button>
                <FormError error={ackAll.error} />
              </div>
            ) : null}
            <table className="table table--compact" aria-label="Quiet feeds">
              <thead>
                <tr>
                  <th scope="col">Feed</th>
                  <th scope="col">Quiet</th>
                  <th scope="col">Last signal</th>
                  <th scope="col">Ack</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {data.sources.map((q) => (
                  <QuietRow key={q.sourceId} q={q} />
                ))}
              </tbody>
            </table>
          </>
        )
      ) : null}
    </Section>
  );
}
