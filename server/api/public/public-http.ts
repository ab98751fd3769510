import type { Request } from 'express';

/**
 * The one Cache-Control value the public document states for its template, changelog, blog,
 * integrations and pricing endpoints (and which their human pages share).
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=300, s-maxage=1800';

/** Anything with tsoa's Controller.setHeader (a controller instance) or Express's res.setHeader. */
interface HeaderSink {
  setHeader(name: string, value: string): unknown;
}

/** Marks a public answer cacheable as the public document says. */
export function cachePublicly(sink: HeaderSink): void {
  sink.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);
}

/**
 * `{base_url}` of the public document: the address this request reached the desk on. The Host
 * guard in app.ts has already refused any Host that is not the desk's own, so it is safe to echo.
 */
export function baseUrlOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
