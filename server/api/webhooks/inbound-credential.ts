import type { Response } from 'express';
import type { ErrorBody } from '../../core/errors';
import type { IngestScope } from '../../domain/ingest/ingest-service';

/** The answer to an unknown route; a wrong webhook token gets exactly this, so it reveals nothing. */
export const NO_SUCH_ROUTE: ErrorBody = { error: 'not_found', message: 'No such API route' };

/** Who the path token let in: the workspace (any source, or none) or one source's scoped ingest URL. */
export type InboundCredential = { kind: 'workspace' } | ({ kind: 'source' } & IngestScope);

/**
 * The credential the mount's token check accepted for this request, or null (the route trusts it,
 * never re-compares). Its own module: the controller reads it, and the mount imports the generated
 * routes (which import the controller).
 */
export const inboundCredential = (res: Response): InboundCredential | null => (res.locals.inboundCredential as InboundCredential | undefined) ?? null;
