import type { CostPanelColumn, CostPanelSort } from './api';

/** The Cost page's per-axis orders and its row columns, as the member picks them. */

export const COST_SORT_LABELS: Record<CostPanelSort, string> = {
  'cost-desc': 'Most spent first',
  'cost-asc': 'Least spent first',
  'name-asc': 'Name A–Z',
  'name-desc': 'Name Z–A',
};

export const COST_COLUMN_LABELS: Record<CostPanelColumn, string> = {
  cost: 'Cost',
  trend: 'Trend',
  detail: 'Details',
};

const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Rows in the axis's order (pure); ties by name, then key, so the order is stable. */
export function sortCostRows<R extends { key: string; label: string; usd: number }>(rows: readonly R[], sort: CostPanelSort): R[] {
  const name = (a: R, b: R) => byName.compare(a.label, b.label) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const order: Record<CostPanelSort, (a: R, b: R) => number> = {
    'cost-desc': (a, b) => b.usd - a.usd || name(a, b),
    'cost-asc': (a, b) => a.usd - b.usd || name(a, b),
    'name-asc': name,
    'name-desc': (a, b) => name(b, a),
  };
  return [...rows].sort(order[sort]);
}
