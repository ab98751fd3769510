import type { ArtifactPage } from './api';
import { hoursLabel } from './format';

/**
 * The queue at a glance, from the list answer's aggregates (computed over every ready output, so the
 * attention and reviewer filters never change them): aging, ownership and decision speed.
 */
export function QueueStats({ page }: { page: ArtifactPage }) {
  const { approvalAging: aging, approvalOwnership: owners, approvalThroughput: speed, approvalPolicy: policy } = page;
  const stats: [string, string, string?][] = [
    ['Waiting', String(aging.waiting)],
    ['Past watch', String(aging.pastWatch), `waiting at least ${policy.watchHours} h`],
    ['Overdue', String(aging.pastOverdue), `waiting at least ${policy.overdueHours} h`],
    ['Oldest wait', hoursLabel(aging.oldestWaitHours)],
    ['Mine', String(owners.mine)],
    ['Unassigned', String(owners.unassigned)],
    ['7-day median', hoursLabel(speed.last7Days.medianHours), 'median wait of decisions in the last 7 days'],
    ['30-day p90', hoursLabel(speed.p90Hours30d), '90th percentile wait of decisions in the last 30 days'],
  ];
  return (
    <dl className="queue-stats" aria-label="Queue at a glance">
      {stats.map(([label, value, title]) => (
        <div key={label} className="queue-stats__item" title={title}>
          <dt className="muted small">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
