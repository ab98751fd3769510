import type { ErrorBody } from '../../core/errors';
import type { IngestScope } from '../../domain/ingest/ingest-service';

/** The answer to an unknown route; a wrong webhook token gets exactly this, so it reveals nothing. */
export const NO_SUCH_ROUTE: ErrorBody = { error: 'not_found', message: 'No such API route.' };

/** Who the path token let in: the workspace (any source, or none) or one source's scoped ingest URL. */
export type InboundCredential = { kind: 'workspace' } | ({ kind: 'source' } & IngestScope);
