import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../components/Badge';
import { FormError } from '../../components/FormError';
import { formatDateTime } from '../../lib/format';
import { gatingQuery, type RecipientGating, type SimulatedDate } from './api';
import { REASON_LABELS } from './format';

const ROLE_LABEL: Record<string, string> = { owner: 'Owner', admin: 'Admin' };

function Address({ r }: { r: RecipientGating }) {
  if (r.address === null) return <span className="muted">no address</span>;
  return (
    <span title={r.addressSource === 'digest_email' ? 'The workspace digest address (Settings > Workspace)' : 'The member’s own email'}>
      {r.address}
      {r.addressSource === 'digest_email' ? <span className="muted small"> · digest address</span> : null}
    </span>
  );
}

/** Every owner and admin with what the digest would decide for them at the simulated instant (or now), and why. */
export function RecipientsTable({ simulatedDate }: { simulatedDate: SimulatedDate }) {
  const q = useQuery(gatingQuery(simulatedDate));
  const g = q.data;
  return (
    <div className="digest-recipients">
      <FormError error={q.error} fields={['simulatedDate']} />
      {q.isPending ? <p className="muted small">Loading…</p> : null}
      {g ? (
        <>
          <p className="muted small" aria-live="polite">
            Decided for <strong>{g.localTime}</strong> ({g.timezone}){g.simulated ? ', a simulated time' : ''}.{' '}
            {g.intervalGate.open
              ? 'The daily 22-hour gate is open.'
              : `The daily 22-hour gate opens ${g.intervalGate.opensAt ? formatDateTime(g.intervalGate.opensAt) : 'later'} (previews bypass it).`}
          </p>
          <div className="digest-table">
            <table className="table" aria-label="Digest recipients">
              <thead>
                <tr>
                  <th scope="col">Recipient</th>
                  <th scope="col">Address</th>
                  <th scope="col">Decision</th>
                </tr>
              </thead>
              <tbody>
                {g.recipients.map((r) => (
                  <tr key={r.userId}>
                    <td className="nowrap">
                      <strong>{r.name}</strong> <span className="muted small">{ROLE_LABEL[r.role] ?? r.role}</span>
                    </td>
                    <td>
                      <Address r={r} />
                    </td>
                    <td>
                      <Badge tone={r.outcome === 'would_send' ? 'success' : 'warning'}>{REASON_LABELS[r.reason] ?? r.reason}</Badge>
                      <span className="digest-decision muted small">{r.detail}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}
