import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge, type Tone } from '../../components/Badge';
import { ConfirmButton } from '../../components/ConfirmButton';
import { FormError } from '../../components/FormError';
import { QueryState } from '../../components/Page';
import { Section, SettingRow } from '../../components/Section';
import { SelectAllCheckbox } from '../../components/SelectAllCheckbox';
import { ActionsHeader, RowActions } from '../../components/Table';
import { formatDateTime, formatRelative, plural } from '../../lib/format';
import { DeliveryLog } from './DeliveryLog';
import {
  attemptSummary,
  subscriptionsQuery,
  useBulkSubscriptions,
  useDeleteSubscription,
  usePatchSubscription,
  useTestSubscription,
  type OutboundBulkAction,
  type OutboundSubscription,
} from './outbound-api';
import { SubscriptionForm } from './SubscriptionForm';
import './outbound.css';

const STATUS: Record<OutboundSubscription['status'], { tone: Tone; text: string }> = {
  active: { tone: 'success', text: 'Active' },
  paused: { tone: 'neutral', text: 'Paused' },
  disabled: { tone: 'danger', text: 'Disabled' },
};

function disabledWhy(s: OutboundSubscription): string | null {
  if (s.disabledReason === 'gone') return 'Disabled: the receiver answered 410 Gone. Resume once it accepts deliveries again.';
  if (s.disabledReason === 'failing') return `Disabled: every delivery failed since ${s.failingSince ? formatDateTime(s.failingSince) : 'five days ago'}. Resume once the receiver works.`;
  return null;
}

function SubscriptionRow({ s, selected, onSelect }: { s: OutboundSubscription; selected: boolean; onSelect: (on: boolean) => void }) {
  const patch = usePatchSubscription();
  const remove = useDeleteSubscription();
  const test = useTestSubscription();
  const status = STATUS[s.status];
  const name = s.label ?? s.url;
  return (
    <tr>
      <td>
        <input type="checkbox" aria-label={`Select ${name}`} checked={selected} onChange={(e) => onSelect(e.target.checked)} />
      </td>
      <td>
        {s.label ? <strong>{s.label}</strong> : null}
        <div>
          <code className="small">{s.url}</code>
        </div>
        <div className="muted small">secret {s.secretHint}</div>
      </td>
      <td title={s.events.join('\n')}>{s.events.length <= 3 ? s.events.join(', ') : plural(s.events.length, 'event')}</td>
      <td>
        <Badge tone={status.tone}>{status.text}</Badge>
        {disabledWhy(s) ? <div className="small text-danger">{disabledWhy(s)}</div> : null}
        {s.status === 'active' && s.failingSince ? <div className="small text-warning">Failing since {formatRelative(s.failingSince)}</div> : null}
        {s.pendingDeliveries ? <div className="muted small">{plural(s.pendingDeliveries, 'delivery', 'deliveries')} waiting</div> : null}
      </td>
      <td>
        {s.lastAttempt ? (
          <>
            <Badge tone={s.lastAttempt.outcome === 'succeeded' ? 'success' : 'danger'}>{s.lastAttempt.statusCode ?? 'no answer'}</Badge>{' '}
            <span className="small">
              <code>{s.lastAttempt.event}</code> {formatRelative(s.lastAttempt.at)}
            </span>
          </>
        ) : (
          <span className="muted small">never</span>
        )}
      </td>
      <RowActions error={patch.error ?? remove.error ?? test.error}>
        <button type="button" className="button button--small button--secondary" disabled={patch.isPending} onClick={() => patch.mutate({ id: s.id, active: !s.active })}>
          {s.active ? 'Pause' : 'Resume'}
        </button>
        <button type="button" className="button button--small button--secondary" disabled={test.isPending} aria-label={`Send test to ${name}`} onClick={() => test.mutate(s.id)}>
          {test.isPending ? 'Sending…' : 'Send test'}
        </button>
        <ConfirmButton label="Delete" question={`Delete ${name}? Its queued deliveries and its delivery log go with it.`} confirmLabel="Delete" disabled={remove.isPending} onConfirm={() => remove.mutate(s.id)} />
        {test.data ? (
          <span className={`small ${test.data.outcome === 'succeeded' ? 'text-success' : 'text-danger'}`} role="status">
            Test {attemptSummary(test.data)}
          </span>
        ) : null}
      </RowActions>
    </tr>
  );
}

function SubscriptionTable({ subscriptions }: { subscriptions: readonly OutboundSubscription[] }) {
  const bulk = useBulkSubscriptions();
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const ids = subscriptions.map((s) => s.id).filter((id) => picked.has(id));
  const run = (action: OutboundBulkAction) => bulk.mutate({ action, subscriptionIds: ids }, { onSuccess: () => setPicked(new Set()) });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(id);
    else next.delete(id);
    setPicked(next);
  };
  if (subscriptions.length === 0) return <p className="muted small">No subscription yet: create one below.</p>;
  return (
    <div className="stack stack--tight">
      <div className="actions" role="group" aria-label="Bulk actions">
        <span className="muted small">{ids.length ? `${plural(ids.length, 'subscription')} selected` : 'Select subscriptions to pause, resume or delete them together.'}</span>
        <button type="button" className="button button--small button--secondary" disabled={!ids.length || bulk.isPending} onClick={() => run('pause')}>
          Pause selected
        </button>
        <button type="button" className="button button--small button--secondary" disabled={!ids.length || bulk.isPending} onClick={() => run('resume')}>
          Resume selected
        </button>
        <ConfirmButton label="Delete selected" question={`Delete ${plural(ids.length, 'subscription')} with their queued deliveries and logs?`} confirmLabel="Delete them" disabled={!ids.length || bulk.isPending} onConfirm={() => run('delete')} />
      </div>
      <FormError error={bulk.error} />
      <div className="table-wrap">
        <table className="table" aria-label="Webhook subscriptions">
          <thead>
            <tr>
              <th scope="col">
                <SelectAllCheckbox total={subscriptions.length} selected={ids.length} onChange={(all) => setPicked(new Set(all ? subscriptions.map((s) => s.id) : []))} label="Select all subscriptions" />
              </th>
              <th scope="col">Receiver</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
              <th scope="col">Last delivery</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {subscriptions.map((s) => (
              <SubscriptionRow key={s.id} s={s} selected={picked.has(s.id)} onSelect={(on) => toggle(s.id, on)} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Settings > Webhooks: outbound subscriptions (create, choose events, pause, test, delete) and the delivery log. */
export function OutboundWebhooksSection() {
  const subs = useQuery(subscriptionsQuery());
  const list = subs.data?.subscriptions ?? [];
  return (
    <Section
      id="webhooks"
      title="Webhooks"
      description="Send Desk's events to other services. Each delivery is signed to the Standard Webhooks spec, retried for about a day when the receiver is down, and logged."
    >
      <QueryState isPending={subs.isPending} error={subs.error} onRetry={() => void subs.refetch()} />
      {subs.data ? (
        <>
          <SettingRow title="Subscriptions" description="A receiver that answers 410, or fails every delivery for 5 days, is disabled; resume it once it works.">
            <SubscriptionTable subscriptions={list} />
          </SettingRow>
          <SettingRow title="New subscription" description="The signing secret is shown once, when the subscription is created.">
            <SubscriptionForm events={subs.data.events} />
          </SettingRow>
          <SettingRow title="Delivery log" description="Every attempt: status, duration, the start of the answer, and the next retry.">
            <DeliveryLog subscriptions={list} />
          </SettingRow>
        </>
      ) : null}
    </Section>
  );
}
