import { useState } from 'react';
import { useCursorList } from '../../api/cursor-list';
import { Badge } from '../../components/Badge';
import { FormError } from '../../components/FormError';
import { LoadMore } from '../../components/LoadMore';
import { ActionsHeader, RowActions } from '../../components/Table';
import { formatDateTime, formatRelative } from '../../lib/format';
import { deliveryList, useRetryDelivery, type DeliveryAttempt, type DeliveryFilter, type OutboundSubscription } from './outbound-api';

function AttemptRow({ a }: { a: DeliveryAttempt }) {
  const retry = useRetryDelivery();
  return (
    <tr>
      <td>
        <time dateTime={a.createdAt} title={formatDateTime(a.createdAt, true)}>
          {formatRelative(a.createdAt)}
        </time>
      </td>
      <td>
        <code>{a.event}</code>
      </td>
      <td>{a.subscriptionLabel ?? <span className="muted">{a.url}</span>}</td>
      <td>#{a.attemptNumber}</td>
      <td>{a.trigger}</td>
      <td>
        <Badge tone={a.outcome === 'succeeded' ? 'success' : 'danger'} title={a.error ?? undefined}>
          {a.statusCode ?? 'no answer'}
        </Badge>
        {a.outcome === 'failed' && a.error ? <div className="muted small">{a.error}</div> : null}
      </td>
      <td>{a.durationMs} ms</td>
      <td>{a.nextRetryAt ? <time dateTime={a.nextRetryAt}>{formatDateTime(a.nextRetryAt)}</time> : <span className="muted">{a.deliveryState === 'given_up' ? 'given up' : '—'}</span>}</td>
      <td>
        {a.responseExcerpt ? (
          <details>
            <summary>Response</summary>
            <pre className="code-block outbound-excerpt">{a.responseExcerpt}</pre>
          </details>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <RowActions error={retry.error}>
        <button type="button" className="button button--small button--secondary" disabled={retry.isPending} aria-label={`Retry ${a.event} #${a.attemptNumber}`} onClick={() => retry.mutate(a.id)}>
          {retry.isPending ? 'Retrying…' : 'Retry'}
        </button>
        {retry.data ? <span className="muted small">{retry.data.outcome === 'succeeded' ? `Delivered (HTTP ${retry.data.statusCode})` : `Failed again: ${retry.data.error ?? 'no answer'}`}</span> : null}
      </RowActions>
    </tr>
  );
}

/** The delivery log: every attempt, newest first, with a retry by hand. */
export function DeliveryLog({ subscriptions }: { subscriptions: readonly OutboundSubscription[] }) {
  const [filter, setFilter] = useState<DeliveryFilter>({ subscriptionId: '', outcome: '' });
  const list = useCursorList(deliveryList(filter, subscriptions));
  return (
    <div className="stack stack--tight">
      <div className="filters">
        <label>
          Subscription{' '}
          <select className="input" value={filter.subscriptionId} onChange={(e) => setFilter({ ...filter, subscriptionId: e.target.value })}>
            <option value="">All</option>
            {subscriptions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label ?? s.url}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Outcome{' '}
          <select className="input" value={filter.outcome} onChange={(e) => setFilter({ ...filter, outcome: e.target.value as DeliveryFilter['outcome'] })}>
            <option value="">All</option>
            <option value="succeeded">Succeeded</option>
            <option value="failed">Failed</option>
          </select>
        </label>
      </div>
      {list.items.length > 0 ? (
        <div className="table-wrap">
          <table className="table" aria-label="Delivery log">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Subscription</th>
                <th scope="col">Attempt</th>
                <th scope="col">Trigger</th>
                <th scope="col">Status</th>
                <th scope="col">Duration</th>
                <th scope="col">Next retry</th>
                <th scope="col">Response</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {list.items.map((a) => (
                <AttemptRow key={a.id} a={a} />
              ))}
            </tbody>
          </table>
        </div>
      ) : list.isSuccess ? (
        <p className="muted small">No delivery yet{filter.subscriptionId || filter.outcome ? ' matches these filters' : ''}.</p>
      ) : null}
      {!list.isFetchNextPageError ? <FormError error={list.error} /> : null}
      <LoadMore list={list} end={list.items.length > 0 ? 'Attempts are kept 30 days.' : null} />
    </div>
  );
}
