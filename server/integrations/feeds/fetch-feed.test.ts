import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedError } from './feed-error';
import { decodeBody, fetchFeed } from './fetch-feed';
import { fixture, startFeedServer, type FeedServer } from '../../testing/fakes/feed-server';

async function failure(p: Promise<unknown>): Promise<FeedError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(FeedError);
    return err as FeedError;
  }
  throw new Error('expected a FeedError');
}

describe('fetchFeed', () => {
  let server: FeedServer;
  beforeAll(async () => {
    server = await startFeedServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('returns the body with its validators, and 304 as not modified when they match', async () => {
    server.set('/rss', { body: fixture('rss.xml'), etag: '"v1"', lastModified: 'Mon, 09 Mar 2026 10:00:00 GMT' });
    const first = await fetchFeed(server.url('/rss'));
    expect(first).toMatchObject({ notModified: false, etag: '"v1"', lastModified: 'Mon, 09 Mar 2026 10:00:00 GMT' });
    expect(first.notModified === false && first.text.includes('Acme Newsroom')).toBe(true);

    expect(await fetchFeed(server.url('/rss'), { etag: '"v1"' })).toEqual({ notModified: true });
    expect(server.requests.at(-1)).toMatchObject({ ifNoneMatch: '"v1"', status: 304 });

    expect(await fetchFeed(server.url('/rss'), { lastModified: 'Mon, 09 Mar 2026 10:00:00 GMT' })).toEqual({ notModified: true });
    expect(server.requests.at(-1)).toMatchObject({ ifModifiedSince: 'Mon, 09 Mar 2026 10:00:00 GMT', status: 304 });

    // a stale validator gets the full body
    expect((await fetchFeed(server.url('/rss'), { etag: '"v0"' })).notModified).toBe(false);
  });

  it('reports an HTTP error status as feed_http_error', async () => {
    server.set('/broken', { status: 500, body: 'oops' });
    const err = await failure(fetchFeed(server.url('/broken')));
    expect(err.code).toBe('feed_http_error');
    expect(err.message).toContain('500');
  });

  it('stops reading past the size cap, with or without Content-Length', async () => {
    server.set('/stream', { streamBytes: 2 * 1024 * 1024 });
    expect((await failure(fetchFeed(server.url('/stream'), { maxBytes: 1024 * 1024 }))).code).toBe('feed_too_large');
    server.set('/declared', { body: 'x'.repeat(2048) });
    expect((await failure(fetchFeed(server.url('/declared'), { maxBytes: 1024 }))).code).toBe('feed_too_large');
    // at the cap exactly is fine
    server.set('/exact', { body: 'x'.repeat(1024) });
    expect((await fetchFeed(server.url('/exact'), { maxBytes: 1024 })).notModified).toBe(false);
  });

  it('reads the default 5 MB cap: 6 MB is too large', async () => {
    server.set('/six', { streamBytes: 6 * 1024 * 1024 });
    expect((await failure(fetchFeed(server.url('/six')))).code).toBe('feed_too_large');
  });

  it('gives up after the timeout', async () => {
    server.set('/hang', { hang: true });
    const err = await failure(fetchFeed(server.url('/hang'), { timeoutMs: 200 }));
    expect(err.code).toBe('feed_timeout');
  });

  it('reports a closed port as feed_unreachable', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const err = await failure(fetchFeed(`http://127.0.0.1:${port}/feed`));
    expect(err.code).toBe('feed_unreachable');
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('decodes the charset named by the header or the XML declaration', () => {
    const latin1 = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><t>caf\xe9</t>', 'latin1');
    expect(decodeBody(latin1, 'application/xml')).toContain('café');
    expect(decodeBody(Buffer.from('café', 'utf8'), 'text/xml; charset=utf-8')).toBe('café');
    expect(decodeBody(Buffer.from('ok'), 'text/xml; charset=no-such-charset')).toBe('ok');
  });
});
