import { describe, expect, it, vi } from 'vitest';
import { json } from '../testing/fake-api';
import { ApiError, createApiClient, toApiError, unwrap } from './client';

describe('toApiError', () => {
  it('maps details[] to a per-field map', () => {
    const err = toApiError(422, {
      error: 'validation_failed',
      message: 'loopIntervalMinutes: min 1',
      details: [{ field: 'loopIntervalMinutes', message: 'min 1' }],
    });
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, code: 'validation_failed', message: 'loopIntervalMinutes: min 1' });
    expect(err.fields).toEqual({ loopIntervalMinutes: 'min 1' });
    expect(err.fieldError('loopIntervalMinutes')).toBe('min 1');
    expect(err.fieldError('overdueHours')).toBeUndefined();
  });

  it('joins several messages for one field and skips malformed details', () => {
    const err = toApiError(422, {
      error: 'validation_failed',
      message: 'two problems',
      details: [{ field: 'watchHours', message: 'min 1' }, { field: 'watchHours', message: 'invalid integer number' }, { message: 'no field' }, null],
    });
    expect(err.fields).toEqual({ watchHours: 'min 1; invalid integer number' });
  });

  it('matches indexed and nested field names by their base name', () => {
    const err = toApiError(422, { error: 'validation_failed', message: 'bad tag', details: [{ field: 'tags[1]', message: '"B c" is not a tag' }] });
    expect(err.fieldError('tags')).toBe('"B c" is not a tag');
    expect(err.fieldError('tags[1]')).toBe('"B c" is not a tag');
    expect(err.fieldError('tag')).toBeUndefined();
    expect(err.hasFieldError(['timezone', 'tags'])).toBe(true);
    expect(err.hasFieldError(['timezone'])).toBe(false);
  });

  it('keeps a body without details as a message-only error', () => {
    const err = toApiError(409, { error: 'conflict', message: 'Already running' });
    expect(err).toMatchObject({ status: 409, code: 'conflict', message: 'Already running', fields: {} });
  });

  it('turns a body that is not the error shape into a generic error', () => {
    expect(toApiError(502, '<html>Bad gateway</html>')).toMatchObject({ status: 502, code: 'http_502', message: '<html>Bad gateway</html>' });
    expect(toApiError(500, undefined)).toMatchObject({ code: 'http_500', message: 'Desk answered with HTTP 500' });
    expect(toApiError(500, { error: 1 })).toMatchObject({ code: 'http_500' });
  });
});

describe('createApiClient', () => {

  it('sends the bearer token and returns typed data', async () => {
    const seen: Request[] = [];
    const client = createApiClient({
      baseUrl: 'http://127.0.0.1:4477',
      getToken: () => 'secret',
      onUnauthorized: () => undefined,
      fetch: async (req) => {
        seen.push(req);
        return json(200, { tags: ['q3-launch'] });
      },
    });
    const data = await unwrap(client.GET('/api/v1/workspace/focus-tags'));
    expect(data.tags).toEqual(['q3-launch']);
    expect(seen[0].url).toBe('http://127.0.0.1:4477/api/v1/workspace/focus-tags');
    expect(seen[0].headers.get('authorization')).toBe('Bearer secret');
  });

  it('sends no Authorization header without a token', async () => {
    let header: string | null = 'unset';
    const client = createApiClient({
      baseUrl: 'http://x',
      getToken: () => null,
      onUnauthorized: () => undefined,
      fetch: async (req) => ((header = req.headers.get('authorization')), json(200, { tags: [] })),
    });
    await unwrap(client.GET('/api/v1/workspace/focus-tags'));
    expect(header).toBeNull();
  });

  it('throws an ApiError with the field map on a 422', async () => {
    const client = createApiClient({
      baseUrl: 'http://x',
      getToken: () => 't',
      onUnauthorized: () => undefined,
      fetch: async () => json(422, { error: 'validation_failed', message: 'overdueHours must be greater than watchHours', details: [{ field: 'overdueHours', message: 'must be greater than watchHours' }] }),
    });
    const err = await unwrap(client.PATCH('/api/v1/workspace/approval-policy', { body: { watchHours: 10, overdueHours: 5 } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).fieldError('overdueHours')).toBe('must be greater than watchHours');
  });

  it('reports a 401 so the app can return to the sign-in screen', async () => {
    const onUnauthorized = vi.fn();
    const client = createApiClient({
      baseUrl: 'http://x',
      getToken: () => 'stale',
      onUnauthorized,
      fetch: async () => json(401, { error: 'unauthorized', message: 'Invalid bearer token' }),
    });
    const err = await unwrap(client.GET('/api/v1/workspace')).catch((e: unknown) => e);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(err).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('does not report a 401 to a request sent with a token replaced since (a rotation while it was in flight)', async () => {
    const onUnauthorized = vi.fn();
    let token = 'old';
    const client = createApiClient({
      baseUrl: 'http://x',
      getToken: () => token,
      onUnauthorized,
      fetch: async (req) => {
        // the token is rotated while this request is on its way
        token = 'new';
        return req.headers.get('Authorization') === 'Bearer new' ? json(200, {}) : json(401, { error: 'unauthorized', message: 'Invalid bearer token' });
      },
    });
    const err = await unwrap(client.GET('/api/v1/workspace')).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401 });
    expect(onUnauthorized).not.toHaveBeenCalled();
    // a 401 to the current token still signs out
    await unwrap(client.GET('/api/v1/workspace')).catch(() => undefined);
    token = 'newer';
    const again = createApiClient({ baseUrl: 'http://x', getToken: () => token, onUnauthorized, fetch: async () => json(401, { error: 'unauthorized', message: 'Invalid bearer token' }) });
    await unwrap(again.GET('/api/v1/workspace')).catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not report other failures as a rejected token', async () => {
    const onUnauthorized = vi.fn();
    const client = createApiClient({ baseUrl: 'http://x', getToken: () => 't', onUnauthorized, fetch: async () => json(404, { error: 'not_found', message: 'No such API route' }) });
    await unwrap(client.GET('/api/v1/workspace')).catch(() => undefined);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('turns a network failure into status 0', async () => {
    const client = createApiClient({
      baseUrl: 'http://x',
      getToken: () => 't',
      onUnauthorized: () => undefined,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(unwrap(client.GET('/api/v1/workspace'))).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});
