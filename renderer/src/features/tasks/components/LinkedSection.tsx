import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Schema } from '../../../api/client';
import { Badge, type Tone } from '../../../components/Badge';
import { FormError } from '../../../components/FormError';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { taskOutputsQuery, taskSourcesQuery } from '../api';

type TaskOutput = Schema<'TaskOutput'>;

const OUTPUT_STATUS: Record<TaskOutput['status'], { label: string; tone: Tone }> = {
  ready: { label: 'Ready for review', tone: 'info' },
  approved: { label: 'Approved', tone: 'success' },
  archived: { label: 'Archived', tone: 'neutral' },
};

function OutputRow({ o }: { o: TaskOutput }) {
  const status = o.supersededAt ? { label: 'Replaced by a newer version', tone: 'neutral' as Tone } : OUTPUT_STATUS[o.status];
  return (
    <li className="task-links__item">
      <Link to="/outputs/$artifactId" params={{ artifactId: o.id }} className="task-links__title">
        {o.title}
      </Link>
      <span className="task-links__meta muted small">
        v{o.version} · {o.authorKind === 'member' ? 'edited by a member' : 'written by the AI'} ·{' '}
        <span title={formatDateTime(o.createdAt)}>{formatRelative(o.createdAt)}</span>
      </span>
      <Badge tone={status.tone}>{status.label}</Badge>
    </li>
  );
}

/** What the task links to: the outputs written for it, and the signals it came from. */
export function LinkedSection({ taskId }: { taskId: string }) {
  const outputs = useQuery(taskOutputsQuery(taskId));
  const sources = useQuery(taskSourcesQuery(taskId));
  const deleted = sources.data?.missingSignalIds.length ?? 0;
  return (
    <>
      <section className="card card--padded" aria-labelledby="task-outputs-title">
        <h2 className="card__title" id="task-outputs-title">
          Outputs
        </h2>
        {outputs.isPending ? <p className="muted small">Loading…</p> : null}
        <FormError error={outputs.error} />
        {outputs.data && outputs.data.outputs.length === 0 ? <p className="muted small">No output yet: the next AI cycle that works on this task writes one.</p> : null}
        {outputs.data && outputs.data.outputs.length > 0 ? (
          <ul className="task-links" aria-label="Outputs of this task">
            {outputs.data.outputs.map((o) => (
              <OutputRow key={o.id} o={o} />
            ))}
          </ul>
        ) : null}
        {outputs.data && outputs.data.total > outputs.data.outputs.length ? <p className="muted small">The newest {outputs.data.outputs.length} of {outputs.data.total}.</p> : null}
      </section>
      <section className="card card--padded" aria-labelledby="task-signals-title">
        <h2 className="card__title" id="task-signals-title">
          Source signals
        </h2>
        {sources.isPending ? <p className="muted small">Loading…</p> : null}
        <FormError error={sources.error} />
        {sources.data && sources.data.signals.length === 0 && deleted === 0 ? <p className="muted small">Made by hand: no signal led to this task.</p> : null}
        {sources.data && sources.data.signals.length > 0 ? (
          <ul className="task-links" aria-label="Signals this task came from">
            {sources.data.signals.map((s) => (
              <li key={s.id} className="task-links__item">
                <Link to="/signals" search={{ signal: s.id }} className="task-links__title">
                  {s.title}
                </Link>
                <span className="task-links__meta muted small">
                  {s.sourceLabel ? `${s.sourceLabel} · ` : ''}
                  <span title={formatDateTime(s.publishedAt ?? s.createdAt)}>{formatRelative(s.publishedAt ?? s.createdAt)}</span>
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        {deleted > 0 ? <p className="muted small">{deleted === 1 ? '1 source signal has been deleted since.' : `${deleted} source signals have been deleted since.`}</p> : null}
      </section>
    </>
  );
}
