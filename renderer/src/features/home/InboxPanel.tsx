import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge } from '../../components/Badge';
import { FormError } from '../../components/FormError';
import { QueryState } from '../../components/Page';
import { Section } from '../../components/Section';
import { formatDateTime, formatRelative } from '../../lib/format';
import { membersQuery } from '../members/api';
import { inboxQuery, useAckMention, type PersonalInbox } from './api';

function More({ total, shown }: { total: number; shown: number }) {
  return total > shown ? <li className="muted small">and {total - shown} more</li> : null;
}

function Mentions({ inbox }: { inbox: PersonalInbox }) {
  const ack = useAckMention();
  const { items, total } = inbox.mentions;
  if (total === 0) return null;
  return (
    <div className="home-list">
      <h3 className="home-list__title">
        Mentions <span className="muted">({total})</span>
      </h3>
      <ul aria-label="Mentions">
        {items.map((m) => (
          <li key={m.mentionId} className="home-mention">
            <span className="home-avatar" style={{ background: `hsl(${m.authorHue} 55% 45%)` }} aria-hidden="true">
              {m.authorInitials}
            </span>
            <span className="home-mention__body">
              <strong>{m.authorName}</strong> on <Link to="/tasks/$taskId" params={{ taskId: m.taskId }}>{m.taskTitle}</Link>{' '}
              <span className="muted small">{formatRelative(m.createdAt)}</span>
              <span className="home-mention__text">{m.excerpt}</span>
            </span>
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={ack.isPending}
              onClick={() => ack.mutate({ mentionId: m.mentionId, asUserId: inbox.userId })}
              aria-label={`Acknowledge ${m.authorName}'s mention on ${m.taskTitle}`}
            >
              Acknowledge
            </button>
          </li>
        ))}
        <More total={total} shown={items.length} />
      </ul>
      {ack.error ? <FormError error={ack.error} /> : null}
    </div>
  );
}

function StaleTasks({ inbox }: { inbox: PersonalInbox }) {
  const { items, total, thresholdDays } = inbox.staleTasks;
  if (total === 0) return null;
  return (
    <div className="home-list">
      <h3 className="home-list__title">
        Stale assigned tasks <span className="muted">({total}, untouched for more than {thresholdDays} days)</span>
      </h3>
      <ul aria-label="Stale assigned tasks">
        {items.map((t) => (
          <li key={t.id}>
            <Link to="/tasks/$taskId" params={{ taskId: t.id }}>
              {t.title}
            </Link>{' '}
            <span className="muted small">{t.daysStale} days without an update</span>
          </li>
        ))}
        <More total={total} shown={items.length} />
      </ul>
    </div>
  );
}

function DueSoon({ inbox }: { inbox: PersonalInbox }) {
  const { items, total, windowHours } = inbox.dueSoon;
  if (total === 0) return null;
  return (
    <div className="home-list">
      <h3 className="home-list__title">
        Due soon <span className="muted">({total}, within {windowHours} hours or overdue)</span>
      </h3>
      <ul aria-label="Due soon">
        {items.map((t) => (
          <li key={t.id}>
            <Link to="/tasks/$taskId" params={{ taskId: t.id }}>
              {t.title}
            </Link>{' '}
            {t.overdue ? <Badge tone="danger">overdue</Badge> : null}{' '}
            <span className="muted small" title={t.dueAt ? formatDateTime(t.dueAt) : undefined}>
              due {t.dueAt ? formatRelative(t.dueAt) : ''}
            </span>
          </li>
        ))}
        <More total={total} shown={items.length} />
      </ul>
    </div>
  );
}

/** What waits on one member (the owner unless another is picked): mentions to acknowledge, stale and due-soon tasks. */
export function InboxPanel({ userId, onUserChange }: { userId: string | null; onUserChange: (userId: string | null) => void }) {
  const q = useQuery(inboxQuery(userId));
  const members = useQuery(membersQuery());
  const people = members.data?.members ?? [];
  const picker =
    people.length > 1 ? (
      <label className="home-picker">
        <select className="input input--select" aria-label="Inbox of" value={userId ?? q.data?.userId ?? ''} onChange={(e) => onUserChange(e.target.value === people[0]?.id ? null : e.target.value)}>
          {people.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      </label>
    ) : null;
  const inbox = q.data;
  const empty = inbox && inbox.mentions.total + inbox.staleTasks.total + inbox.dueSoon.total === 0;
  return (
    <Section id="home-inbox" title={inbox ? `Inbox of ${inbox.userName}` : 'Inbox'} description={picker}>
      {!inbox ? <QueryState isPending={q.isPending} error={q.error} onRetry={() => void q.refetch()} /> : null}
      {empty ? <p className="muted">Nothing waits on {inbox.userName}: no unread mentions, no stale or due tasks.</p> : null}
      {inbox ? (
        <>
          <Mentions inbox={inbox} />
          <DueSoon inbox={inbox} />
          <StaleTasks inbox={inbox} />
        </>
      ) : null}
    </Section>
  );
}
