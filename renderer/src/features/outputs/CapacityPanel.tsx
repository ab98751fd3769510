import { Link } from '@tanstack/react-router';
import type { Schema } from '../../api/client';
import { plural } from '../../lib/format';
import { hoursLabel } from './format';

type Capacity = Schema<'ArtifactList'>['approvalCapacity'];
type Reviewer = Capacity['reviewers'][number];

const STATE_TEXT: Record<Capacity['state'], string> = {
  empty: 'No review is waiting: nobody carries any.',
  balanced: 'Reviews are spread evenly.',
  unbalanced: 'Some reviewers carry more than their share.',
  no_reviewer_available: 'No reviewer is available: everyone who reviews is away.',
};

/** One reviewer's load as a bar against the busiest reviewer, with the target load marked. */
function LoadRow({ r, scale, target }: { r: Reviewer; scale: number; target: number | null }) {
  const width = scale === 0 ? 0 : (r.load / scale) * 100;
  return (
    <li className={`capacity-row${r.available ? '' : ' is-away'}`}>
      <span className="capacity-row__name">
        {r.name}
        {r.available ? null : <span className="muted small"> · away</span>}
      </span>
      <span className="capacity-row__bar" aria-hidden="true">
        <span className={`capacity-row__fill${r.overdue > 0 ? ' has-overdue' : ''}`} style={{ width: `${width}%` }} />
        {target !== null && scale > 0 ? <span className="capacity-row__target" style={{ left: `${Math.min(100, (target / scale) * 100)}%` }} /> : null}
      </span>
      <span className="capacity-row__load small">
        {r.load}
        {r.overdue > 0 ? <span className="capacity-row__overdue"> ({r.overdue} overdue)</span> : null}
      </span>
    </li>
  );
}

/**
 * Who carries the waiting reviews (the oldest 200), against the even share of available reviewers,
 * and the one move that would even it out. Nothing moves by itself: the suggestion names the outputs
 * so the operator can reassign their tasks.
 */
export function CapacityPanel({ capacity, titleOf }: { capacity: Capacity; titleOf: (artifactId: string) => string | undefined }) {
  const c = capacity;
  const scale = Math.max(1, c.targetLoad ?? 0, ...c.reviewers.map((r) => r.load));
  const nameOf = (id: string) => c.reviewers.find((r) => r.userId === id)?.name ?? id;
  const move = c.suggestion;
  return (
    <section className="card card--padded insight" aria-label="Reviewer capacity">
      <h2 className="insight__title">Reviewer capacity</h2>
      <p className="small">{STATE_TEXT[c.state]}</p>
      {c.reviewers.length > 0 ? (
        <>
          <ul className="capacity-rows" aria-label="Load per reviewer">
            {c.reviewers.map((r) => (
              <LoadRow key={r.userId} r={r} scale={scale} target={c.targetLoad} />
            ))}
          </ul>
          <p className="muted small">
            {c.targetLoad === null ? 'No target load without an available reviewer.' : `Target ${c.targetLoad} per available reviewer`}
            {c.queueSpread !== null ? `, spread ${c.queueSpread}` : ''}. {plural(c.availableReviewers, 'reviewer')} available, {c.unavailableReviewers} away.
          </p>
        </>
      ) : (
        <p className="muted small">No member can decide outputs (owners, admins and editors can).</p>
      )}
      <dl className="insight__figures small">
        <div>
          <dt className="muted">With available reviewers</dt>
          <dd>{c.availableOwned}</dd>
        </div>
        <div>
          <dt className="muted">With reviewers who are away</dt>
          <dd>{c.awayOwned}</dd>
        </div>
        <div>
          <dt className="muted">Unassigned</dt>
          <dd>{c.unassigned}</dd>
        </div>
        {c.otherOwned > 0 ? (
          <div>
            <dt className="muted">Owned by non-reviewers</dt>
            <dd>{c.otherOwned}</dd>
          </div>
        ) : null}
      </dl>
      {move ? (
        <div className="capacity-move" role="note" aria-label="Suggested move">
          <p className="small">
            <strong>Suggestion:</strong> move {plural(move.artifactIds.length, 'review')} from {nameOf(move.fromUserId)}
            {move.reason === 'away' ? ' (away)' : ''} to {nameOf(move.toUserId)}. Reassign their tasks to do it; nothing moves by itself.
          </p>
          <ul className="capacity-move__items small">
            {move.artifactIds.map((id) => (
              <li key={id}>
                <Link to="/outputs/$artifactId" params={{ artifactId: id }}>
                  {titleOf(id) ?? id}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {c.coverage.complete ? null : (
        <p className="muted small">
          Counted over the oldest {c.coverage.considered} of {c.coverage.waiting} waiting reviews.
        </p>
      )}
      {c.reviewers.some((r) => r.oldestWaitHours !== null) ? (
        <p className="muted small">
          Longest wait per reviewer:{' '}
          {c.reviewers
            .filter((r) => r.oldestWaitHours !== null)
            .map((r) => `${r.name} ${hoursLabel(r.oldestWaitHours)}`)
            .join(', ')}
          .
        </p>
      ) : null}
    </section>
  );
}
