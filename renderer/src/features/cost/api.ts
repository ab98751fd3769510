import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

/** Query options of the Cost page: today against the cap, and what drives spend (GET /cost/..., /tasks/top-cost). */

export type CostToday = Schema<'CostToday'>;
export type AssigneeCost = Schema<'AssigneeCost'>;
export type TagCost = Schema<'TagCost'>;
export type SourceCost = Schema<'SourceCost'>;
export type TopCostTask = Schema<'TopCostTask'>;

export interface BreakdownFilter {
  includeDone: boolean;
  /** The trajectories' window in workspace days (1-30). */
  days: number;
}

export const costTodayQuery = () =>
  queryOptions({
    queryKey: queryKeys.cost.today,
    queryFn: () => unwrap(api.GET('/api/v1/cost/today')),
  });

export const assigneeCostQuery = (f: BreakdownFilter) =>
  queryOptions({
    queryKey: queryKeys.cost.breakdown('assignees', { ...f }),
    queryFn: () => unwrap(api.GET('/api/v1/cost/by-assignee', { params: { query: { includeDone: f.includeDone, trajectoryDays: f.days } } })),
  });

export const tagCostQuery = (f: BreakdownFilter) =>
  queryOptions({
    queryKey: queryKeys.cost.breakdown('tags', { ...f }),
    queryFn: () => unwrap(api.GET('/api/v1/cost/by-tag', { params: { query: { includeDone: f.includeDone, trajectoryDays: f.days } } })),
  });

export const sourceCostQuery = (f: BreakdownFilter) =>
  queryOptions({
    queryKey: queryKeys.cost.breakdown('sources', { includeDone: f.includeDone }),
    queryFn: () => unwrap(api.GET('/api/v1/cost/by-source', { params: { query: { includeDone: f.includeDone } } })),
  });

export const topTasksQuery = (f: BreakdownFilter) =>
  queryOptions({
    queryKey: queryKeys.cost.breakdown('tasks', { includeDone: f.includeDone }),
    queryFn: () => unwrap(api.GET('/api/v1/tasks/top-cost', { params: { query: { includeDone: f.includeDone, limit: 10 } } })),
  });
