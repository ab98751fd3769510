import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../components/Page';
import { Section } from '../../components/Section';
import { insightsQuery, reactionsQuery } from './api';
import { countLabel } from './format';
import { ThingLink } from './ThingLink';

/** The most used tags of the last 14 days as a small bar list. */
export function InsightsPanel() {
  const q = useQuery(insightsQuery());
  const data = q.data;
  const max = data?.tags[0]?.total ?? 0;
  return (
    <Section id="home-insights" title="Top tags" description={data ? `On tasks, outputs and memory made ${data.fromDay} to ${data.toDay} (${data.windowDays} days).` : undefined}>
      {!data ? <QueryState isPending={q.isPending} error={q.error} onRetry={() => void q.refetch()} /> : null}
      {data && data.tags.length === 0 ? <p className="muted">No tags used in the last 14 days. Tag tasks, outputs or memory to see what the desk works on.</p> : null}
      {data && data.tags.length > 0 ? (
        <ul className="home-bars" aria-label="Top tags">
          {data.tags.map((t) => (
            <li key={t.tag} className="home-bars__row" title={`${countLabel(t.tasks, 'task')}, ${countLabel(t.artifacts, 'output')}, ${countLabel(t.memory, 'memory entry', 'memory entries')}`}>
              <span className="home-bars__label">{t.tag}</span>
              <span className="home-bars__track" aria-hidden="true">
                <span className="home-bars__fill" style={{ width: `${max === 0 ? 0 : Math.max(4, (t.total / max) * 100)}%` }} />
              </span>
              <span className="home-bars__value">{t.total}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

const KIND_LABEL: Record<string, string> = { signal: 'Signal', artifact: 'Output', memory: 'Memory', comment: 'Comment' };

/** Reactions across comments, outputs, memory and signals: per-emoji totals and the most reacted things. */
export function ReactionsPanel() {
  const q = useQuery(reactionsQuery());
  const data = q.data;
  return (
    <Section id="home-reactions" title="Reactions">
      {!data ? <QueryState isPending={q.isPending} error={q.error} onRetry={() => void q.refetch()} /> : null}
      {data && data.totals.total === 0 ? <p className="muted">No reactions yet. React to signals, outputs, memory or comments to mark what matters.</p> : null}
      {data && data.totals.total > 0 ? (
        <>
          <p className="home-emojis" aria-label="Reactions per emoji">
            {data.emojis
              .filter((e) => e.total > 0)
              .map((e) => (
                <span key={e.emoji} className="home-emoji" title={`${e.signals} on signals, ${e.artifacts} on outputs, ${e.memory} on memory, ${e.comments} on comments`}>
                  {e.emoji} {e.total}
                </span>
              ))}
          </p>
          <ol className="home-top" aria-label="Most reacted">
            {data.top.map((t) => (
              <li key={`${t.kind}:${t.id}`}>
                <span className="muted small">{KIND_LABEL[t.kind] ?? t.kind}</span>{' '}
                <ThingLink kind={t.kind} id={t.id} taskId={t.taskId}>
                  {t.title || t.id}
                </ThingLink>{' '}
                <span className="small">{t.reactions.map((r) => `${r.emoji} ${r.count}`).join('  ')}</span>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </Section>
  );
}
