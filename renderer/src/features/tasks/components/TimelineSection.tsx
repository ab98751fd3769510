import { useCursorList } from '../../../api/cursor-list';
import { FormError } from '../../../components/FormError';
import { LoadMore } from '../../../components/LoadMore';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { timelineList, type TimelineEntry } from '../api';

const TYPE_LABEL: Record<TimelineEntry['type'], string> = { created: 'Created', work_log: 'AI cycle', note: 'Note', comment: 'Comment', activity: 'Change' };

/** The task's unified timeline, newest first: creation, AI cycles, notes, comments, changes. */
export function TimelineSection({ taskId }: { taskId: string }) {
  const list = useCursorList(timelineList(taskId));
  return (
    <section className="card card--padded" aria-labelledby="task-timeline-title">
      <h2 className="card__title" id="task-timeline-title">
        Timeline
      </h2>
      {list.isPending ? <p className="muted small">Loading…</p> : null}
      {list.error && !list.isFetchNextPageError ? <FormError error={list.error} /> : null}
      <ol className="task-timeline" aria-label="Timeline">
        {list.items.map((e) => (
          <li key={`${e.type}-${e.id}`} className={`task-timeline__entry is-${e.type}`}>
            <span className="task-timeline__type">{TYPE_LABEL[e.type]}</span>
            <span className="task-timeline__text">{e.text}</span>
            <span className="muted small">
              {e.actorLabel ? `${e.actorLabel} · ` : ''}
              <span title={formatDateTime(e.at)}>{formatRelative(e.at)}</span>
            </span>
          </li>
        ))}
      </ol>
      <LoadMore list={list} />
    </section>
  );
}
