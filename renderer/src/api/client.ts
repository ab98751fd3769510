import createClient, { type Middleware } from 'openapi-fetch';
import { useAuth } from '../lib/auth';
import { RESCUE_MODE_HEADER, useDiskFullReports, useRescueMode } from '../lib/desk-mode';
import type { components, paths } from './schema.gen';

/** Shorthand for a schema of the generated OpenAPI types: `Schema<'WorkspaceProfile'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The one error body every API failure carries (docs/architecture.md, "errors"), as the OpenAPI document describes it. */
export type ErrorBody = Schema<'ErrorBody'>;

/** An API failure, with its messages per field (`details[].field`) for showing next to inputs. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** HTTP status; 0 when Desk could not be reached at all. */
    readonly status: number,
    /** The body's snake_case `error` code. */
    readonly code: string,
    message: string,
    /** Field name as the API names it (`loopIntervalMinutes`, `tags[1]`) to its message. */
    readonly fields: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  /** The message for a field; `tags` also matches `tags[1]` and `tags.x`. */
  fieldError(name: string): string | undefined {
    if (this.fields[name] !== undefined) return this.fields[name];
    const key = Object.keys(this.fields).find((k) => k.startsWith(`${name}[`) || k.startsWith(`${name}.`));
    return key === undefined ? undefined : this.fields[key];
  }

  /** True when at least one of the named fields has a message. */
  hasFieldError(names: readonly string[]): boolean {
    return names.some((n) => this.fieldError(n) !== undefined);
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as ErrorBody).error === 'string' && typeof (body as ErrorBody).message === 'string';
}

/** Turns whatever a failed response carried into an ApiError; several messages for one field are joined. */
export function toApiError(status: number, body: unknown): ApiError {
  if (!isErrorBody(body)) {
    const text = typeof body === 'string' && body.trim() ? body.trim().slice(0, 300) : `Desk answered with HTTP ${status}`;
    return new ApiError(status, `http_${status}`, text);
  }
  const fields: Record<string, string> = {};
  for (const d of Array.isArray(body.details) ? body.details : []) {
    if (typeof d?.field !== 'string' || typeof d.message !== 'string') continue;
    fields[d.field] = fields[d.field] ? `${fields[d.field]}; ${d.message}` : d.message;
  }
  return new ApiError(status, body.error, body.message, fields);
}

/** Sends the bearer token on every request and reports a 401 (token rejected). */
export function authMiddleware(getToken: () => string | null, onUnauthorized: () => void): Middleware {
  return {
    onRequest({ request }) {
      const token = getToken();
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
    onResponse({ request, response }) {
      // A desk in rescue mode answers everything with this header: the app shows the rescue page.
      if (response.headers.get(RESCUE_MODE_HEADER) === 'rescue') useRescueMode.getState().enter();
      if (response.status === 507) useDiskFullReports.getState().report();
      if (response.status !== 401) return undefined;
      // A request sent with a token that has been replaced since (a rotation answered while it was
      // in flight) says nothing about the current token: not a reason to sign out.
      const current = getToken();
      const sent = request.headers.get('Authorization');
      if (current && sent !== null && sent !== `Bearer ${current}`) return undefined;
      onUnauthorized();
      return undefined;
    },
  };
}

export function createApiClient(options: {
  baseUrl: string;
  getToken: () => string | null;
  onUnauthorized: () => void;
  fetch?: (input: Request) => Promise<Response>;
}) {
  // Looked up per request (not captured once), so a fetch installed later (tests, polyfills) is used.
  const fetchImpl = options.fetch ?? ((input: Request) => globalThis.fetch(input));
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: fetchImpl });
  client.use(authMiddleware(options.getToken, options.onUnauthorized));
  return client;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's client: base URL and token from the auth store, a 401 sends the user back to the sign-in screen. */
export const api: ApiClient = createApiClient({
  baseUrl: useAuth.getState().baseUrl,
  getToken: () => useAuth.getState().token,
  onUnauthorized: () => useAuth.getState().reject(),
});

/**
 * Awaits an openapi-fetch call and returns its data, or throws an ApiError (a network failure
 * becomes status 0). Query functions and mutations use it so react-query sees typed errors.
 */
export async function unwrap<Data>(call: Promise<{ data?: Data; error?: unknown; response: Response }>): Promise<Data> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'network_error', 'Desk is not reachable. Is it still running?');
  }
  if (!result.response.ok || result.error !== undefined) throw toApiError(result.response.status, result.error);
  return result.data as Data;
}
