import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../components/Page';
import { Section } from '../../components/Section';
import { formatRelative } from '../../lib/format';
import { whatsNewQuery, type WhatsNew } from './api';
import { countLabel } from './format';
import { ThingLink } from './ThingLink';

type Item = WhatsNew['samples']['signals'][number];

function SampleList({ label, total, items, kind }: { label: string; total: number; items: Item[]; kind: 'signal' | 'artifact' }) {
  if (total === 0) return null;
  return (
    <div className="home-list">
      <h3 className="home-list__title">
        {label} <span className="muted">({total})</span>
      </h3>
      <ul aria-label={label}>
        {items.map((s) => (
          <li key={s.id}>
            <ThingLink kind={kind} id={s.id}>
              {s.title}
            </ThingLink>{' '}
            <span className="muted small">{formatRelative(s.at)}</span>
          </li>
        ))}
        {total > items.length ? <li className="muted small">and {total - items.length} more</li> : null}
      </ul>
    </div>
  );
}

/** What happened since the last visit (or the last 24 hours), per kind, with the newest few of each. */
export function WhatsNewPanel({ since }: { since: string | null }) {
  const q = useQuery(whatsNewQuery(since));
  const title = since === null ? "What's new in the last 24 hours" : `What's new since your last visit`;
  if (!q.data) {
    return (
      <Section id="home-whats-new" title={title}>
        <QueryState isPending={q.isPending} error={q.error} onRetry={() => void q.refetch()} />
      </Section>
    );
  }
  const w = q.data;
  const c = w.counts;
  const nothing = c.signals + c.artifacts + c.approvals + c.activity === 0;
  return (
    <Section
      id="home-whats-new"
      title={title}
      description={
        <>
          Since {formatRelative(w.since)}
          {w.clamped ? ' (only the last 30 days are shown)' : ''}.
        </>
      }
    >
      {nothing ? (
        <p className="muted">Nothing new since then. New signals, outputs and decisions show up here.</p>
      ) : (
        <>
          <p className="home-counts">
            {countLabel(c.signals, 'new signal')} · {countLabel(c.artifacts, 'output')} made, {c.outputs} waiting · {countLabel(c.approvals, 'approval')} ·{' '}
            {countLabel(c.activity, 'logged change')}
          </p>
          <SampleList label="New signals" total={c.signals} items={w.samples.signals} kind="signal" />
          <SampleList label="Outputs waiting for you" total={c.outputs} items={w.samples.outputs} kind="artifact" />
          <SampleList label="Approved" total={c.approvals} items={w.samples.approvals} kind="artifact" />
          {c.activity > 0 ? (
            <div className="home-list">
              <h3 className="home-list__title">
                Activity <span className="muted">({c.activity})</span>
              </h3>
              <ul aria-label="Activity">
                {w.samples.activity.map((a) => (
                  <li key={a.id}>
                    <ThingLink kind={a.entityType} id={a.entityId}>
                      {a.title}
                    </ThingLink>{' '}
                    <span className="muted small">{formatRelative(a.at)}</span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      )}
    </Section>
  );
}
