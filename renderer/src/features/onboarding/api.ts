import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** Query options and the one mutation of the onboarding flow: the template catalog and applying a template. */

export type TemplateCatalog = Schema<'TemplateCatalog'>;
export type TemplateListRow = Schema<'TemplateListRow'>;
export type TemplateDetail = Schema<'TemplateDetail'>;
export type TemplateSearchRow = Schema<'TemplateSearchRow'>;
export type ApplyTemplateBody = Schema<'ApplyTemplateBody'>;
export type ApplyTemplateResult = Schema<'ApplyTemplateResult'>;

/** The catalog only changes with a release: no refetching while the flow is open. */
const STATIC = { staleTime: Infinity } as const;

export const catalogQuery = () => queryOptions({ queryKey: queryKeys.onboarding.catalog, queryFn: () => unwrap(api.GET('/api/v1/onboarding-templates')), ...STATIC });

export const searchQuery = (q: string) =>
  queryOptions({
    queryKey: queryKeys.onboarding.search(q),
    queryFn: () => unwrap(api.GET('/api/v1/onboarding-templates/search', { params: { query: { q, limit: 50 } } })),
    ...STATIC,
  });

export const templateQuery = (key: string) =>
  queryOptions({
    queryKey: queryKeys.onboarding.detail(key),
    queryFn: () => unwrap(api.GET('/api/v1/onboarding-templates/{key}', { params: { path: { key } } })),
    ...STATIC,
  });

/** Adds the template's chosen memories and signals; the memory, signal and Home reads refresh. */
export const useApplyTemplate = () =>
  useDeskMutation({
    mutationFn: (body: ApplyTemplateBody) => unwrap(api.POST('/api/v1/workspace/onboarding-template/apply', { body })),
    affects: [queryKeys.memory.all, queryKeys.signals.all, queryKeys.overview.all],
  });
