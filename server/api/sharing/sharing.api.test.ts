import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../core/clock';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { setTimezone } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

const shared = useTestDesk();
const desk = () => shared.desk;

async function share(taskId: string, page: 'work-log' | 'timeline', enable: boolean) {
  const res = await desk().api('POST', `/api/v1/tasks/${taskId}/share-${page}`, { enable });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A public page, fetched as a browser would: no bearer token. */
async function open(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(desk().url + path, { headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text(), headers: res.headers };
}

async function addWorkLog(taskId: string, entry: string, createdAt: string) {
  await desk().services.db.insertInto('taskWorkLog').values({ id: `wl_${createdAt}`, taskId, entry, createdAt }).execute();
}

describe('POST /tasks/{id}/share-work-log and share-timeline', () => {
  it('creates an unguessable token, keeps it when enabled again, and revokes it at once', async () => {
    const taskId = await insertTaskRow(desk());
    const on = await share(taskId, 'work-log', true);
    expect(on).toEqual({ ok: true, publicWorkLogToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), sharePath: `/share/work-log/${on.publicWorkLogToken}` });
    expect((await share(taskId, 'work-log', true)).publicWorkLogToken).toBe(on.publicWorkLogToken);
    expect((await open(on.sharePath)).status).toBe(200);

    expect(await share(taskId, 'work-log', false)).toEqual({ ok: true, publicWorkLogToken: null, sharePath: null });
    const revoked = await open(on.sharePath);
    expect(revoked.status).toBe(404);
    expect(revoked.type).toMatch(/text\/html/);

    const again = await share(taskId, 'work-log', true);
    expect(again.publicWorkLogToken).not.toBe(on.publicWorkLogToken);
    expect((await open(on.sharePath)).status).toBe(404);
    expect((await open(again.sharePath)).status).toBe(200);

    const kinds = (await desk().services.db.selectFrom('activity').select('kind').where('entityId', '=', taskId).orderBy('id').execute()).map((r) => r.kind);
    expect(kinds).toEqual(['task.share_enabled', 'task.share_disabled', 'task.share_enabled']);
    const events = await desk().services.db.selectFrom('outboxEvents').select('payload').where('event', '=', 'task.share_changed').orderBy('id').execute();
    expect(events.map((e) => JSON.parse(e.payload).data)).toEqual([
      { taskId, page: 'work_log', enabled: true },
      { taskId, page: 'work_log', enabled: false },
      { taskId, page: 'work_log', enabled: true },
    ]);
    // The timeline link is its own: the work-log token does not open it.
    expect((await open(`/share/timeline/${again.publicWorkLogToken}`)).status).toBe(404);
    const timeline = await share(taskId, 'timeline', true);
    expect(timeline).toEqual({ ok: true, publicTimelineToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), sharePath: `/share/timeline/${timeline.publicTimelineToken}` });
  });

  it('refuses an unknown task (404) and a non-boolean enable (422), changing nothing', async () => {
    const taskId = await insertTaskRow(desk());
    await expectRejectedUnchanged(desk(), { method: 'POST', path: '/api/v1/tasks/tsk_nope/share-work-log', body: { enable: true } }, { status: 404, error: 'task_not_found' });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${taskId}/share-timeline`, body: { enable: 'yes' } }, { field: 'enable' });
    await expectRejectedUnchanged(desk(), { method: 'POST', path: `/api/v1/tasks/${taskId}/share-timeline`, body: {} }, { field: 'enable' });
  });
});

describe('the public pages', () => {
  it('escape everything the task holds, a hostile title included', async () => {
    const hostile = '<script>alert("x")</script>';
    const taskId = await insertTaskRow(desk(), { title: hostile, summary: '<img src=x onerror=alert(1)>' });
    await addWorkLog(taskId, '</li><script>evil()</script>', '2026-03-10T12:30:00.000Z');
    await desk().api('POST', `/api/v1/tasks/${taskId}/comments`, { text: '"><svg onload=alert(2)>' });
    for (const page of ['work-log', 'timeline'] as const) {
      const { sharePath } = await share(taskId, page, true);
      const res = await open(sharePath);
      expect(res.status).toBe(200);
      expect(res.type).toMatch(/^text\/html/);
      expect(res.text).not.toMatch(/<script|<img|<svg/i);
      expect(res.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(res.text).toContain('&lt;/li&gt;&lt;script&gt;evil()&lt;/script&gt;');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
  });

  it('the work log shows the work log only; the timeline adds the creation event and the comments', async () => {
    const taskId = await insertTaskRow(desk(), { title: 'Launch brief', createdAt: '2026-03-10T11:00:00.000Z' });
    await addWorkLog(taskId, 'Drafted the outline', '2026-03-10T11:30:00.000Z');
    const root = (await desk().api('POST', `/api/v1/tasks/${taskId}/comments`, { text: 'Nice outline' })).body;
    await desk().api('POST', `/api/v1/tasks/${taskId}/comments`, { text: 'Agreed', parentCommentId: root.id });
    const workLog = (await open((await share(taskId, 'work-log', true)).sharePath)).text;
    expect(workLog).toContain('Drafted the outline');
    expect(workLog).not.toContain('Nice outline');
    expect(workLog).not.toContain('Task created');
    const timeline = (await open((await share(taskId, 'timeline', true)).sharePath)).text;
    const order = ['Task created', 'Drafted the outline', 'Nice outline', 'Agreed'].map((s) => timeline.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(timeline).toContain('class="comment reply"');
  });

  it('answers 404 for an unknown or malformed token, and obeys the Host guard', async () => {
    expect((await open(`/share/work-log/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await open('/share/timeline/short')).status).toBe(404);
    const taskId = await insertTaskRow(desk());
    const { sharePath } = await share(taskId, 'work-log', true);
    // fetch cannot set Host: a raw request, as a DNS-rebinding page would send it.
    const port = new URL(desk().url).port;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'GET', path: sharePath, headers: { host: `evil.example:${port}` }, setHost: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
    // Nothing was counted for the refused request.
    expect(await desk().services.db.selectFrom('taskViews').selectAll().where('taskId', '=', taskId).execute()).toEqual([]);
  });
});

describe('GET /tasks/{id}/work-log-views', () => {
  it('counts views per workspace-timezone day across midnight, 14 days oldest first, zero-filled', async () => {
    await setTimezone(desk(), 'America/New_York');
    const taskId = await insertTaskRow(desk());
    const { sharePath } = await share(taskId, 'work-log', true);
    const timeline = await share(taskId, 'timeline', true);
    // 03:30Z on 10 March is 23:30 on 9 March in New York (UTC-4 since the 8 March DST change).
    desk().clock.set('2026-03-10T03:30:00.000Z');
    await open(sharePath);
    await open(sharePath);
    await open(timeline.sharePath); // a timeline view is not a work-log view
    desk().clock.advance(HOUR_MS); // 00:30 on 10 March in New York
    await open(sharePath);
    const res = await desk().api('GET', `/api/v1/tasks/${taskId}/work-log-views`);
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(14);
    expect(res.body.days[0]).toEqual({ date: '2026-02-25', count: 0 });
    expect(res.body.days.slice(-3)).toEqual([
      { date: '2026-03-08', count: 0 },
      { date: '2026-03-09', count: 2 },
      { date: '2026-03-10', count: 1 },
    ]);
    const rows = await desk().services.db.selectFrom('taskViews').selectAll().where('taskId', '=', taskId).orderBy('kind').orderBy('day').execute();
    expect(rows).toEqual([
      { taskId, kind: 'timeline', day: '2026-03-09', count: 1 },
      { taskId, kind: 'work_log', day: '2026-03-09', count: 2 },
      { taskId, kind: 'work_log', day: '2026-03-10', count: 1 },
    ]);
    await expectRejectedUnchanged(desk(), { method: 'GET', path: '/api/v1/tasks/tsk_nope/work-log-views' }, { status: 404, error: 'task_not_found' });
  });
});
