import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, withCursor, type CursorPage } from '../../api/cursor-list';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** The daily digest's reads and the one-shot send (/workspace/digest-config, -recipients-gating, -preview, -audit). */

export type DigestConfig = Schema<'DigestConfig'>;
export type RecipientsGating = Schema<'RecipientsGating'>;
export type RecipientGating = Schema<'RecipientGating'>;
export type DigestPreview = Schema<'DigestPreview'>;
export type DigestPreviewSent = Schema<'DigestPreviewSent'>;
export type DigestAuditEntry = Schema<'DigestAuditEntry'>;

/**
 * A simulated instant as the API takes it: a workspace-local date and hour without an offset
 * (`2026-03-08T13:00`), which the desk reads in the workspace timezone. null: now.
 */
export type SimulatedDate = string | null;

export const digestConfigQuery = () =>
  queryOptions({
    queryKey: queryKeys.digest.config,
    queryFn: () => unwrap(api.GET('/api/v1/workspace/digest-config')),
  });

export const gatingQuery = (simulatedDate: SimulatedDate) =>
  queryOptions({
    queryKey: queryKeys.digest.gating(simulatedDate),
    queryFn: () => unwrap(api.GET('/api/v1/workspace/digest-recipients-gating', { params: { query: simulatedDate ? { simulatedDate } : {} } })),
    placeholderData: (prev) => prev,
    retry: false,
  });

/** What `userId` (null: the owner) would receive at the simulated instant: subject, gating and the HTML (JSON form). */
export const previewQuery = (userId: string | null, simulatedDate: SimulatedDate) =>
  queryOptions({
    queryKey: queryKeys.digest.preview(userId, simulatedDate),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/workspace/digest-preview', {
          params: { query: { format: 'json', ...(userId ? { userId } : {}), ...(simulatedDate ? { simulatedDate } : {}) } },
        }),
      ) as Promise<DigestPreview>,
    placeholderData: (prev) => prev,
    retry: false,
  });

export const auditList = (sinceDays: number) =>
  cursorList({
    queryKey: queryKeys.digest.audit(sinceDays),
    fetchPage: (cursor): Promise<Schema<'DigestAuditPage'> & CursorPage> => unwrap(api.GET('/api/v1/workspace/digest-audit', { params: { query: withCursor({ sinceDays }, cursor) } })),
    items: (page) => page.entries,
  });

/** Sends a digest now to `userId` (null: the owner), gated by their preferences as production is; recorded in the audit. */
export const useSendPreview = () =>
  useDeskMutation({
    mutationFn: (userId: string | null): Promise<DigestPreviewSent> => unwrap(api.POST('/api/v1/workspace/digest-preview', { body: userId ? { userId } : {} })),
    affects: [queryKeys.digest.all],
  });
