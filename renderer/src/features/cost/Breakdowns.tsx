import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormError } from '../../components/FormError';
import { Sparkline } from '../../components/Sparkline';
import { formatUsd, plural } from '../../lib/format';
import { topCostQuery } from '../memory/api';
import { assigneeCostQuery, sourceCostQuery, tagCostQuery, topTasksQuery, type BreakdownFilter } from './api';

interface Row {
  key: string;
  name: ReactNode;
  usd: number;
  detail: string;
  /** Daily cents over the window, oldest first. */
  trend?: readonly number[];
}

/** One "what drives spend" card: a ranked list with the cost, a detail line and the trajectory. */
function CostCard({ title, description, query, rows, empty, days }: { title: string; description: string; query: UseQueryResult; rows: Row[] | undefined; empty: string; days: number }) {
  const id = `cost-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="card cost-card" aria-labelledby={id}>
      <header className="card__header">
        <h2 className="card__title" id={id}>
          {title}
        </h2>
        <p className="card__description">{description}</p>
      </header>
      <div className="card__body">
        <FormError error={query.error} />
        {query.isPending ? <p className="muted small">Loading…</p> : null}
        {rows && rows.length === 0 ? <p className="muted small">{empty}</p> : null}
        {rows && rows.length > 0 ? (
          <ol className="cost-rows">
            {rows.map((r) => (
              <li key={r.key} className="cost-row">
                <span className="cost-row__name">{r.name}</span>
                <span className="cost-row__trend">{r.trend ? <Sparkline values={r.trend} label={`Daily spend over ${days} days`} /> : null}</span>
                <span className="cost-row__usd">{formatUsd(r.usd)}</span>
                <span className="cost-row__detail muted small">{r.detail}</span>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </section>
  );
}

/** The top spenders by task, assignee, tag, source and memory entry, each with its trajectory where the API gives one. */
export function Breakdowns({ filter }: { filter: BreakdownFilter }) {
  const tasks = useQuery(topTasksQuery(filter));
  const assignees = useQuery(assigneeCostQuery(filter));
  const tags = useQuery(tagCostQuery(filter));
  const sources = useQuery(sourceCostQuery(filter));
  const memory = useQuery(topCostQuery());
  const scope = filter.includeDone ? 'all tasks' : 'open tasks';
  return (
    <div className="cost-grid">
      <CostCard
        title="Tasks"
        description={`The most expensive ${scope}, all time; the line is their last 7 days.`}
        query={tasks}
        days={7}
        empty="No task has cost anything yet."
        rows={tasks.data?.tasks.map((t) => ({
          key: t.id,
          name: (
            <Link to="/tasks/$taskId" params={{ taskId: t.id }}>
              {t.title}
            </Link>
          ),
          usd: t.cost.estimatedCostUsd,
          detail: `${plural(t.cost.sessionCount, 'session')} · ${formatUsd(t.cost.costPerSessionUsd)} each`,
          trend: t.trajectory7d,
        }))}
      />
      <CostCard
        title="Assignees"
        description={`Spend of each member's queue (${scope}).`}
        query={assignees}
        days={filter.days}
        empty="No assigned work has cost anything yet."
        rows={assignees.data?.assignees.map((a) => ({
          key: a.assigneeId,
          name: a.removed ? `${a.displayName} (removed)` : a.displayName,
          usd: a.estimatedCostUsd,
          detail: `${plural(a.taskCount, 'task')} · ${plural(a.sessionCount, 'session')}`,
          trend: a.trajectory7d,
        }))}
      />
      <CostCard
        title="Tags"
        description="Each task counts fully under every tag it carries, so tags overlap."
        query={tags}
        days={filter.days}
        empty="No tagged work has cost anything yet."
        rows={tags.data?.tags.map((t) => ({ key: t.tag, name: t.untagged ? <em>untagged</em> : t.tag, usd: t.estimatedCostUsd, detail: plural(t.taskCount, 'task'), trend: t.trajectory7d }))}
      />
      <CostCard
        title="Sources"
        description="A task's cost is split equally across the sources of its signals."
        query={sources}
        days={filter.days}
        empty="No work from a source has cost anything yet."
        rows={sources.data?.sources.map((s) => ({
          key: s.sourceId,
          name: (
            <Link to="/sources/$sourceId" params={{ sourceId: s.sourceId }}>
              {s.label}
            </Link>
          ),
          usd: s.estimatedCostUsd,
          detail: plural(s.taskCount, 'task'),
        }))}
      />
      <CostCard
        title="Memory"
        description="Cost attributed to entries by equal split of the cycles that used them."
        query={memory}
        days={7}
        empty="No memory entry has been used by a cycle yet."
        rows={memory.data?.memory.map((m) => ({
          key: m.id,
          name: (
            <Link to="/memory/$memoryId" params={{ memoryId: m.id }}>
              {m.title}
            </Link>
          ),
          usd: m.estimatedCostUsd,
          detail: plural(m.retrievalCount, 'retrieval'),
        }))}
      />
    </div>
  );
}
