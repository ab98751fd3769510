import { openApiDocument } from '../openapi/document';

interface DocumentedOperation {
  parameters?: { in: string; required?: boolean }[];
  responses?: Record<string, { content?: Record<string, unknown> } | undefined>;
}

/** A stream answers for as long as the client listens (server/api/events/ tests it): documented as text/event-stream. */
export const isStream = (op: DocumentedOperation): boolean => Object.values(op.responses ?? {}).some((r) => r?.content !== undefined && 'text/event-stream' in r.content);

/**
 * Every read of the OpenAPI document without parameters that answers 200 on any running desk: the
 * lists, summaries, exports and public pages of data, which the fuzz and the crash test read after
 * writes. Not a stream, and not a GET documented to answer 409: its answer depends on the desk's
 * state (GET /rescue answers only in rescue mode).
 */
export const fixedReads: string[] = Object.entries(openApiDocument.paths as Record<string, Record<string, DocumentedOperation>>)
  .filter(([, item]) => {
    const get = item.get;
    return get !== undefined && !(get.parameters ?? []).some((p) => p.in === 'path' || p.required) && !isStream(get) && !(get.responses && '409' in get.responses);
  })
  .map(([urlPath]) => urlPath);
