import { useState } from 'react';
import { useCursorList } from '../../api/cursor-list';
import { Badge } from '../../components/Badge';
import { FormError } from '../../components/FormError';
import { LoadMore } from '../../components/LoadMore';
import { formatDateTime, formatRelative } from '../../lib/format';
import { auditList } from './api';
import { DELIVERY_LABELS, REASON_LABELS, TRIGGER_LABELS } from './format';

const WINDOWS = [7, 30, 90, 365] as const;

/** Why a digest was or was not sent: every gating decision the desk recorded in the last N days, newest first. */
export function AuditTable() {
  const [sinceDays, setSinceDays] = useState<number>(30);
  const list = useCursorList(auditList(sinceDays));
  const rows = list.items;
  return (
    <div className="digest-audit">
      <label className="digest-audit__window">
        <span className="field__label">Show the last</span>
        <select className="input input--select" aria-label="Audit window" value={sinceDays} onChange={(e) => setSinceDays(Number(e.target.value))}>
          {WINDOWS.map((d) => (
            <option key={d} value={d}>
              {d} days
            </option>
          ))}
        </select>
      </label>
      {list.isPending ? <p className="muted small">Loading…</p> : null}
      {list.error && !list.isFetchNextPageError ? <FormError error={list.error} /> : null}
      {list.data && rows.length === 0 ? <p className="muted small digest-audit__empty">No digest decision in the last {sinceDays} days. The daily run, previews sent and changes to digest preferences are recorded here.</p> : null}
      {rows.length > 0 ? (
        <div className="digest-table">
          <table className="table" aria-label="Digest audit">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Recipient</th>
                <th scope="col">Outcome</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.id}>
                  <td className="nowrap muted" title={formatDateTime(e.createdAt, true)}>
                    <time dateTime={e.createdAt}>{formatRelative(e.createdAt)}</time>
                    <span className="digest-audit__trigger small">{TRIGGER_LABELS[e.trigger] ?? e.trigger}</span>
                  </td>
                  <td className="nowrap">
                    {e.recipientLabel}
                    {e.recipientEmail ? <span className="digest-audit__email muted small">{e.recipientEmail}</span> : null}
                  </td>
                  <td className="nowrap">
                    <Badge tone={e.outcome === 'would_send' ? (e.delivery === 'failed' ? 'danger' : 'success') : 'warning'}>{e.outcome === 'would_send' ? 'would send' : 'muted'}</Badge>
                    <span className="digest-audit__reason muted small">{e.delivery ? DELIVERY_LABELS[e.delivery] : (REASON_LABELS[e.reason] ?? e.reason)}</span>
                  </td>
                  <td>{e.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <LoadMore list={list} />
        </div>
      ) : null}
    </div>
  );
}
