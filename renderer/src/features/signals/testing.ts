import type { Schema } from '../../api/client';

/** A signal as GET /signals serves it, for the renderer's tests (fields overridden as needed). */
export const aSignal = (fields: Partial<Schema<'Signal'>> & Pick<Schema<'Signal'>, 'id' | 'title'>): Schema<'Signal'> => ({
  kind: 'note',
  priority: 'normal',
  detail: '',
  sourceUrl: null,
  sourceId: null,
  sourceLabel: null,
  externalId: null,
  pinned: false,
  reactions: [],
  createdAt: '2026-03-10T11:00:00.000Z',
  publishedAt: null,
  ...fields,
});
