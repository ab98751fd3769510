import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { FormError } from '../../components/FormError';
import { Sparkline } from '../../components/Sparkline';
import { formatUsd, plural } from '../../lib/format';
import { topCostQuery } from '../memory/api';
import type { CostPanelAxis, CostPanelColumn, CostPanelSort } from '../preferences/api';
import { COST_SORT_LABELS, sortCostRows } from '../preferences/cost-layout';
import { useDashboardPrefs } from '../preferences/use-dashboard-prefs';
import { assigneeCostQuery, sourceCostQuery, tagCostQuery, topTasksQuery, type BreakdownFilter } from './api';

interface Row {
  key: string;
  name: ReactNode;
  /** The name as text, for ordering by name. */
  label: string;
  usd: number;
  detail: string;
  /** Daily cents over the window, oldest first. */
  trend?: readonly number[];
}

/** One "what drives spend" card: a ranked list with the cost, a detail line and the trajectory, in the member's order and columns. */
function CostCard({
  axis,
  title,
  description,
  query,
  rows,
  empty,
  days,
  columns,
  sort,
  onSort,
}: {
  axis: CostPanelAxis;
  title: string;
  description: string;
  query: UseQueryResult;
  rows: Row[] | undefined;
  empty: string;
  days: number;
  columns: readonly CostPanelColumn[];
  sort: CostPanelSort;
  onSort: (sort: CostPanelSort) => void;
}) {
  const id = `cost-${title.toLowerCase().replace(/\W+/g, '-')}`;
  const shown = rows ? sortCostRows(rows, sort) : undefined;
  const show = (c: CostPanelColumn) => columns.includes(c);
  return (
    <section className="card cost-card" aria-labelledby={id} data-axis={axis}>
      <header className="card__header cost-card__header">
        <div>
          <h2 className="card__title" id={id}>
            {title}
          </h2>
          <p className="card__description">{description}</p>
        </div>
        <select className="input input--select cost-card__sort" aria-label={`Order of ${title.toLowerCase()}`} value={sort} onChange={(e) => onSort(e.target.value as CostPanelSort)}>
          {(Object.keys(COST_SORT_LABELS) as CostPanelSort[]).map((s) => (
            <option key={s} value={s}>
              {COST_SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </header>
      <div className="card__body">
        <FormError error={query.error} />
        {query.isPending ? <p className="muted small">Loading…</p> : null}
        {shown && shown.length === 0 ? <p className="muted small">{empty}</p> : null}
        {shown && shown.length > 0 ? (
          <ol className="cost-rows" aria-label={title}>
            {shown.map((r) => (
              <li key={r.key} className="cost-row">
                <span className="cost-row__name">{r.name}</span>
                {show('trend') ? <span className="cost-row__trend">{r.trend ? <Sparkline values={r.trend} label={`Daily spend over ${days} days`} /> : null}</span> : null}
                {show('cost') ? <span className="cost-row__usd">{formatUsd(r.usd)}</span> : null}
                {show('detail') ? <span className="cost-row__detail muted small">{r.detail}</span> : null}
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
  const { prefs, update } = useDashboardPrefs();
  const layout = (axis: CostPanelAxis) => ({
    axis,
    columns: prefs.costPanelColumns,
    sort: prefs.costPanelOrder[axis],
    onSort: (sort: CostPanelSort) => void update({ costPanelOrder: { [axis]: sort } }),
  });
  return (
    <div className="cost-grid">
      <CostCard
        {...layout('task')}
        title="Tasks"
        description={`The most expensive ${scope}, all time; the line is their last 7 days.`}
        query={tasks}
        days={7}
        empty="No task has cost anything yet."
        rows={tasks.data?.tasks.map((t) => ({
          key: t.id,
          label: t.title,
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
        {...layout('assignee')}
        title="Assignees"
        description={`Spend of each member's queue (${scope}).`}
        query={assignees}
        days={filter.days}
        empty="No assigned work has cost anything yet."
        rows={assignees.data?.assignees.map((a) => ({
          key: a.assigneeId,
          label: a.displayName,
          name: a.removed ? `${a.displayName} (removed)` : a.displayName,
          usd: a.estimatedCostUsd,
          detail: `${plural(a.taskCount, 'task')} · ${plural(a.sessionCount, 'session')}`,
          trend: a.trajectory7d,
        }))}
      />
      <CostCard
        {...layout('tag')}
        title="Tags"
        description="Each task counts fully under every tag it carries, so tags overlap."
        query={tags}
        days={filter.days}
        empty="No tagged work has cost anything yet."
        rows={tags.data?.tags.map((t) => ({ key: t.tag, label: t.tag, name: t.untagged ? <em>untagged</em> : t.tag, usd: t.estimatedCostUsd, detail: plural(t.taskCount, 'task'), trend: t.trajectory7d }))}
      />
      <CostCard
        {...layout('source')}
        title="Sources"
        description="A task's cost is split equally across the sources of its signals."
        query={sources}
        days={filter.days}
        empty="No work from a source has cost anything yet."
        rows={sources.data?.sources.map((s) => ({
          key: s.sourceId,
          label: s.label,
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
        {...layout('memory')}
        title="Memory"
        description="Cost attributed to entries by equal split of the cycles that used them."
        query={memory}
        days={7}
        empty="No memory entry has been used by a cycle yet."
        rows={memory.data?.memory.map((m) => ({
          key: m.id,
          label: m.title,
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
