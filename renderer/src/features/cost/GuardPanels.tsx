import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { queryKeys } from '../../api/query-keys';
import { Badge } from '../../components/Badge';
import { FormError } from '../../components/FormError';
import { formatDateTime, formatUsd, plural } from '../../lib/format';
import { CHRONIC_DIMENSIONS, SPIKE_DIMENSIONS, type ChronicRow, type GuardDimension, type SpikeRow } from './guard-api';

type Row = SpikeRow | ChronicRow;
const ackedAtOf = (r: Row) => ('chronicAckedAt' in r ? r.chronicAckedAt : r.ackedAt);
const ratio = (r: Row) => (r.spikeRatio === null ? 'new spend' : `${r.spikeRatio}× its 7-day average`);

/** One entity's line: what it spent against its baseline, the streak, paused and acked states, and its Acknowledge button. */
function GuardRow({ row, kind, onAck, busy }: { row: Row; kind: 'spike' | 'chronic'; onAck: () => void; busy: boolean }) {
  const acked = ackedAtOf(row);
  return (
    <li className={`guard-row${acked ? ' is-acked' : ''}`}>
      <div className="guard-row__main">
        <span className="guard-row__label">{row.label}</span>
        <span className="muted small">
          {row.todayUsd !== null ? `${formatUsd(row.todayUsd)} today vs ${formatUsd(row.baselineUsd ?? 0)} a day (${ratio(row)})` : 'not spiking today'}
          {' · '}
          {plural(row.consecutiveSpikeDays, 'day')} in a row
        </span>
      </div>
      <span className="guard-row__state">
        {row.paused ? <Badge tone="danger">paused</Badge> : null}
        {acked ? (
          <span className="muted small" title={formatDateTime(acked)}>
            acknowledged
          </span>
        ) : (
          <button type="button" className="button button--small" disabled={busy} onClick={onAck} aria-label={`Acknowledge ${row.label}`}>
            {kind === 'spike' ? 'Acknowledge' : 'Mute 7 days'}
          </button>
        )}
      </span>
    </li>
  );
}

/**
 * Spikes (today) or chronic warnings (streaks) of every dimension, grouped, each with its
 * acknowledgement and an "acknowledge all" per group that sends the group's open ones in one bulk call.
 */
const ACK_AFFECTS = [queryKeys.cost.all, queryKeys.tasks.all, queryKeys.sources.all, queryKeys.memory.all, queryKeys.activity.all, queryKeys.stats.all, queryKeys.overview.all];

function GuardPanel<R extends Row>({ title, description, kind, dimensions, empty }: { title: string; description: string; kind: 'spike' | 'chronic'; dimensions: readonly GuardDimension<R>[]; empty: string }) {
  const qc = useQueryClient();
  const lists = useQueries({ queries: dimensions.map((d) => ({ queryKey: queryKeys.cost.guard(kind, d.dimension), queryFn: d.list })) });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      // An ack changes the lists, lifts pauses (tasks, sources), writes activity rows and shows in
      // the stats header: every view of those is refreshed, not only the cost page's.
      await Promise.all(ACK_AFFECTS.map((queryKey) => qc.invalidateQueries({ queryKey })));
    }
  };
  const groups = dimensions.map((d, i) => ({ d, rows: lists[i].data ?? [] })).filter((g) => g.rows.length > 0);
  const pending = lists.some((l) => l.isPending);
  return (
    <section className="card guard-panel" aria-label={title}>
      <header className="card__header">
        <h2 className="card__title">{title}</h2>
        <p className="card__description">{description}</p>
      </header>
      <div className="card__body">
        <FormError error={error ?? lists.find((l) => l.error)?.error ?? null} />
        {!pending && groups.length === 0 ? <p className="muted small">{empty}</p> : null}
        {groups.map(({ d, rows }) => {
          const open = rows.filter((r) => !ackedAtOf(r)).map((r) => r.key);
          return (
            <div key={d.dimension} className="guard-group">
              <div className="guard-group__head">
                <h3 className="small">{d.label}</h3>
                {open.length > 1 ? (
                  <button type="button" className="button button--ghost button--small" disabled={busy} onClick={() => void run(() => d.ackAll(open))}>
                    {kind === 'spike' ? `Acknowledge all ${open.length}` : `Mute all ${open.length}`}
                  </button>
                ) : null}
              </div>
              <ul className="guard-rows" aria-label={`${title}: ${d.label}`}>
                {rows.map((r) => (
                  <GuardRow key={r.key} row={r} kind={kind} busy={busy} onAck={() => void run(() => d.ack(r.key))} />
                ))}
              </ul>
            </div>
          );
        })}
      </div>
    </section>
  );
}

export function SpikesPanel() {
  return (
    <GuardPanel
      title="Spikes today"
      kind="spike"
      dimensions={SPIKE_DIMENSIONS}
      description="Spending at least twice its 7-day daily average and at least $0.50 today. Acknowledging mutes it until midnight and lifts a spike pause."
      empty="Nothing is spiking today."
    />
  );
}

export function ChronicPanel() {
  return (
    <GuardPanel
      title="Chronic warnings"
      kind="chronic"
      dimensions={CHRONIC_DIMENSIONS}
      description="Spiking several days in a row (3; sources: the threshold in Settings). Muting silences the warning for 7 days."
      empty="No chronic spender."
    />
  );
}
