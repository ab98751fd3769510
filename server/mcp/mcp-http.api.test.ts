import http from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MAX_BULK_IDS } from '../core/input';
import { MAX_DETAIL_LENGTH, MAX_TITLE_LENGTH } from '../domain/signals/signal-rules';
import { MAX_NOTE_CHARS, MAX_TASK_TAGS } from '../domain/tasks/rules';
import { dbFingerprint } from '../testing/db-fingerprint';
import { insertArtifactRow } from '../testing/fixtures/artifacts';
import { createTask } from '../testing/fixtures/tasks';
import { callOk, callTool, issueMcpToken, mcpHttpClient, textOf } from '../testing/mcp';
import { useTestDesk } from '../testing/use-test-desk';

const shared = useTestDesk();

const READ_TOOLS = ['review_queue', 'read_output', 'search', 'spend_today', 'loop_status'];
const WRITE_TOOLS = ['approve_outputs', 'archive_outputs', 'add_signal', 'create_task', 'add_note', 'run_cycle_now', 'set_loop_state'];

async function writer(): Promise<Client> {
  return mcpHttpClient(shared.desk, (await issueMcpToken(shared.desk, 'write')).token);
}

/** The activity rows of tool calls, oldest first: actor label and detail. */
async function toolCalls(): Promise<{ actorLabel: string; detail: string; entityId: string | null }[]> {
  return shared.desk.services.db
    .selectFrom('activity')
    .select(['actorLabel', 'detail', 'entityId'])
    .where('kind', '=', 'mcp.tool_called')
    .orderBy('id')
    .execute();
}

/** The text of a resource Desk serves (one text block). */
const resourceText = (read: { contents: ({ text: string } | { blob: string })[] }): string => read.contents.map((c) => ('text' in c ? c.text : '')).join('');

/** Calls a tool that must be refused: a tool error naming `expected`, and no table changed. */
async function expectToolRefused(client: Client, name: string, args: Record<string, unknown>, expected: RegExp): Promise<string> {
  const before = await dbFingerprint(shared.desk.services.db);
  const result = await callTool(client, name, args);
  expect(result.isError, textOf(result)).toBe(true);
  expect(textOf(result)).toMatch(expected);
  expect(await dbFingerprint(shared.desk.services.db)).toEqual(before);
  return textOf(result);
}

describe('the MCP server over Streamable HTTP', () => {
  it('lists every tool of the issue, inputs bounded by the API constants, the changing ones marked', async () => {
    const client = await writer();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of READ_TOOLS) expect(byName.get(name)?.annotations, name).toMatchObject({ readOnlyHint: true });
    for (const name of WRITE_TOOLS) {
      expect(byName.get(name)?.annotations, name).toMatchObject({ readOnlyHint: false });
      expect(byName.get(name)?.description, name).toMatch(/^CHANGES THE DESK/);
    }
    expect(byName.get('approve_outputs')?.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('archive_outputs')?.annotations).toMatchObject({ destructiveHint: true });
    expect(byName.get('run_cycle_now')?.annotations).toMatchObject({ openWorldHint: true });
    const signal = byName.get('add_signal')?.inputSchema as { properties: Record<string, { maxLength?: number; enum?: string[] }>; required: string[] };
    expect(signal.required).toEqual(['title']);
    expect(signal.properties.title.maxLength).toBe(MAX_TITLE_LENGTH);
    expect(signal.properties.detail.maxLength).toBe(MAX_DETAIL_LENGTH);
    expect(signal.properties.kind.enum).toContain('alert');
    const note = byName.get('add_note')?.inputSchema as { properties: Record<string, { maxLength?: number }> };
    expect(note.properties.text.maxLength).toBe(MAX_NOTE_CHARS);
    const decide = byName.get('approve_outputs')?.inputSchema as { properties: Record<string, { maxItems?: number }> };
    expect(decide.properties.ids.maxItems).toBe(MAX_BULK_IDS);
    const task = byName.get('create_task')?.inputSchema as { properties: Record<string, { maxItems?: number }> };
    expect(task.properties.tags.maxItems).toBe(MAX_TASK_TAGS);
    await client.close();
  });

  it('calls each tool against the real desk, each call logged with the tool as the actor', async () => {
    const d = shared.desk;
    const client = await writer();
    const signal = await callOk<{ id: string; title: string; kind: string }>(client, 'add_signal', { title: 'Checkout errors spike on mobile', detail: 'Users report 500s', kind: 'alert', priority: 'high' });
    expect(signal).toMatchObject({ id: expect.stringMatching(/^sig_/), title: 'Checkout errors spike on mobile', kind: 'alert' });
    expect((await d.api('GET', `/api/v1/signals/${signal.id}`)).body).toMatchObject({ priority: 'high', detail: 'Users report 500s' });

    const task = await callOk<{ id: string; status: string; tags: string[] }>(client, 'create_task', { title: 'Write the incident summary', summary: 'For the team', tags: ['incident'], deliverableType: 'report' });
    expect(task).toMatchObject({ status: 'queued', tags: ['incident'] });
    const posted = await callOk<{ note: { text: string }; task: { id: string } }>(client, 'add_note', { taskId: task.id, text: 'Keep it to five lines' });
    expect(posted.note.text).toBe('Keep it to five lines');
    expect((await d.api('GET', `/api/v1/tasks/${task.id}/notes`)).body.notes.map((n: { text: string }) => n.text)).toEqual(['Keep it to five lines']);

    const ready = await insertArtifactRow(d, { title: 'Weekly brief', content: '# Weekly brief\n\nAll quiet.' });
    const other = await insertArtifactRow(d, { title: 'Second draft' });
    const queue = await callOk<{ outputs: { id: string; approvalAttention: string }[]; approvalAging: { waiting: number } }>(client, 'review_queue');
    expect(queue.approvalAging.waiting).toBe(2);
    expect(queue.outputs.map((o) => o.id).sort()).toEqual([ready, other].sort());
    const read = await callTool(client, 'read_output', { id: ready });
    expect(textOf(read)).toContain('All quiet.');
    expect(read.structuredContent).toMatchObject({ id: ready, status: 'ready', content: '# Weekly brief\n\nAll quiet.' });

    const found = await callOk<{ hits: { kind: string; id: string }[] }>(client, 'search', { q: 'checkout', kinds: ['signal'] });
    expect(found.hits.map((h) => h.id)).toEqual([signal.id]);

    const approved = await callOk<{ decided: string[] }>(client, 'approve_outputs', { ids: [ready] });
    expect(approved.decided).toEqual([ready]);
    expect((await d.api('GET', `/api/v1/artifacts/${ready}`)).body.status).toBe('approved');
    const archived = await callOk<{ decided: string[] }>(client, 'archive_outputs', { allReady: true });
    expect(archived.decided).toEqual([other]);
    expect((await d.api('GET', `/api/v1/artifacts/${other}`)).body.status).toBe('archived');

    const spend = await callOk<{ today: { todayCents: number; capReached: boolean } }>(client, 'spend_today');
    expect(spend.today).toMatchObject({ todayCents: 0, capReached: false });

    const paused = await callOk<{ loopState: string }>(client, 'set_loop_state', { loopState: 'paused' });
    expect(paused.loopState).toBe('paused');
    expect((await d.api('GET', '/api/v1/workspace')).body.loopState).toBe('paused');
    const status = await callOk<{ loopState: string; lastRuns: unknown[] }>(client, 'loop_status');
    expect(status).toMatchObject({ loopState: 'paused', lastRuns: [] });

    const run = await callOk<{ id: string; status: string; trigger: string }>(client, 'run_cycle_now');
    expect(run).toMatchObject({ status: 'completed', trigger: 'manual' });
    expect((await d.api('GET', `/api/v1/runs/${run.id}`)).body.status).toBe('completed');

    const calls = await toolCalls();
    expect(calls.map((c) => c.actorLabel)).toEqual([
      'mcp:add_signal',
      'mcp:create_task',
      'mcp:add_note',
      'mcp:review_queue',
      'mcp:read_output',
      'mcp:search',
      'mcp:approve_outputs',
      'mcp:archive_outputs',
      'mcp:spend_today',
      'mcp:set_loop_state',
      'mcp:loop_status',
      'mcp:run_cycle_now',
    ]);
    expect(calls[0]).toMatchObject({ entityId: signal.id, detail: expect.stringMatching(/^Filed signal Checkout errors spike on mobile \(MCP: test write, dskm_…/) });
    // The change keeps its own row (by the owner); the call's row names the tool.
    const created = await d.services.db.selectFrom('activity').select(['kind', 'createdAt']).where('entityId', '=', signal.id).orderBy('id').execute();
    expect(created.map((r) => r.kind)).toEqual(['signal.created', 'mcp.tool_called']);
    const used = (await d.api('GET', '/api/v1/integrations/mcp-tokens')).body.mcpTokens[0];
    expect(used.lastUsedAt).toBe(d.clock.now().toISOString());
    await client.close();
  });

  it('refuses bad input with a tool error naming what was wrong, and changes nothing', async () => {
    const client = await writer();
    const task = await createTask(shared.desk);
    await expectToolRefused(client, 'add_signal', { title: 'x'.repeat(MAX_TITLE_LENGTH + 1) }, /title/);
    await expectToolRefused(client, 'add_signal', { title: 'Bad link', sourceUrl: 'ftp://example.com/x' }, /validation_failed.*sourceUrl/);
    await expectToolRefused(client, 'add_note', { taskId: task.id, text: 'x'.repeat(MAX_NOTE_CHARS + 1) }, /text/);
    await expectToolRefused(client, 'add_note', { taskId: 'tsk_nope', text: 'Hello' }, /task_not_found/);
    await expectToolRefused(client, 'create_task', { title: 'Tagged', summary: 'x', tags: ['Not A Tag'] }, /tags/);
    await expectToolRefused(client, 'set_loop_state', { loopState: 'sideways' }, /loopState/);
    await expectToolRefused(client, 'approve_outputs', { ids: ['art_nope'] }, /artifact_not_found/);
    await expectToolRefused(client, 'approve_outputs', {}, /ids/);
    await expectToolRefused(client, 'approve_outputs', { ids: Array.from({ length: MAX_BULK_IDS + 1 }, (_, i) => `art_${i}`) }, /ids/);
    const decided = await insertArtifactRow(shared.desk, { status: 'approved', decidedAt: shared.desk.clock.now().toISOString() });
    await expectToolRefused(client, 'archive_outputs', { ids: [decided] }, /artifact_decided/);
    await expectToolRefused(client, 'read_output', { id: 'art_nope' }, /artifact_not_found/);
    await expectToolRefused(client, 'search', { q: '' }, /\bq\b/);
    await client.close();
  });

  it('decides many outputs at once, listing the ids it could not decide', async () => {
    const client = await writer();
    const a = await insertArtifactRow(shared.desk);
    const b = await insertArtifactRow(shared.desk);
    const result = await callOk<{ decided: string[]; notFound: string[]; alreadyDecided: string[] }>(client, 'approve_outputs', { ids: [a, 'art_nope', b, a] });
    expect(result).toEqual({ status: 'approved', decided: [a, b], notFound: ['art_nope'], alreadyDecided: [] });
    const again = await callOk<{ decided: string[]; alreadyDecided: string[] }>(client, 'archive_outputs', { ids: [a, await insertArtifactRow(shared.desk, { id: 'art_third' })] });
    expect(again).toMatchObject({ decided: ['art_third'], alreadyDecided: [a] });
    await client.close();
  });

  it('a read-only token sees the reading tools only and cannot change anything', async () => {
    const d = shared.desk;
    const token = await issueMcpToken(d, 'read');
    const client = await mcpHttpClient(d, token.token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
    expect(client.getInstructions()).toMatch(/read-only/);
    const output = await insertArtifactRow(d);
    for (const [name, args] of [
      ['approve_outputs', { ids: [output] }],
      ['add_signal', { title: 'Sneaky' }],
      ['set_loop_state', { loopState: 'off' }],
      ['run_cycle_now', {}],
    ] as const) {
      await expectToolRefused(client, name, args, new RegExp(`Tool ${name} disabled`));
    }
    expect((await callOk<{ approvalAging: { waiting: number } }>(client, 'review_queue')).approvalAging.waiting).toBe(1);
    expect((await toolCalls()).map((c) => c.actorLabel)).toEqual(['mcp:review_queue']);
    await client.close();
  });

  it('refuses a revoked token, the workspace token, no token, a foreign Origin and a foreign Host', async () => {
    const d = shared.desk;
    const issued = await issueMcpToken(d, 'write');
    const client = await mcpHttpClient(d, issued.token);
    expect((await d.api('DELETE', `/api/v1/integrations/mcp-tokens/${issued.id}`)).status).toBe(200);
    // The very next request of an open client is refused: stateless, every POST checks the token.
    await expect(client.listTools()).rejects.toThrow(/401|Unauthorized/i);
    await expect(mcpHttpClient(d, issued.token)).rejects.toThrow(/401|Unauthorized/i);

    const post = (headers: Record<string, string>) =>
      fetch(`${d.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const workspace = await post({ authorization: `Bearer ${d.token}` });
    expect(workspace.status).toBe(401);
    expect(await workspace.json()).toEqual({ error: 'unauthorized', message: expect.stringMatching(/workspace token does not open \/mcp/) });
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const live = await issueMcpToken(d, 'read');
    const foreignOrigin = await post({ authorization: `Bearer ${live.token}`, origin: 'https://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    expect((await foreignOrigin.json()).error).toBe('origin_not_allowed');
    // fetch may not set Host: a raw request does (DNS rebinding: a foreign name resolving to 127.0.0.1).
    const foreignHost = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${d.url}/mcp`, { method: 'POST', headers: { host: 'evil.example', authorization: `Bearer ${live.token}`, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(foreignHost).toBe(421);
    const ok = await post({ authorization: `Bearer ${live.token}` });
    expect(ok.status).toBe(200);
    expect((await fetch(`${d.url}/mcp`, { headers: { authorization: `Bearer ${live.token}` } })).status).toBe(405);
    expect(await toolCalls()).toEqual([]);
  });

  it('serves tasks, outputs and memory entries by URI, today, and the two prompts', async () => {
    const d = shared.desk;
    const client = await writer();
    const task = await createTask(d, { title: 'Plan the launch' });
    const output = await insertArtifactRow(d, { title: 'Launch checklist', content: '- [ ] press' });
    const memory = (await d.api('POST', '/api/v1/memory', { kind: 'fact', title: 'Launch is on Tuesday', content: 'Tuesday at 9.' })).body;
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['desk://today', `desk://tasks/${task.id}`, `desk://outputs/${output}`, `desk://memory/${memory.id}`]));
    const taskRead = await client.readResource({ uri: `desk://tasks/${task.id}` });
    expect(JSON.parse(resourceText(taskRead))).toMatchObject({ id: task.id, title: 'Plan the launch' });
    const outputRead = await client.readResource({ uri: `desk://outputs/${output}` });
    expect(outputRead.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringContaining('- [ ] press') });
    const memoryRead = await client.readResource({ uri: `desk://memory/${memory.id}` });
    expect(JSON.parse(resourceText(memoryRead))).toMatchObject({ title: 'Launch is on Tuesday' });
    const today = JSON.parse(resourceText(await client.readResource({ uri: 'desk://today' })));
    expect(today).toMatchObject({ outputsWaiting: 1, spend: { todayCents: 0 } });
    await expect(client.readResource({ uri: 'desk://tasks/tsk_nope' })).rejects.toThrow(/No task with id tsk_nope/);

    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['review_my_queue', 'what_changed_since_yesterday']);
    const review = await client.getPrompt({ name: 'review_my_queue' });
    expect(review.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining(`Launch checklist (${output})`) });
    const changed = await client.getPrompt({ name: 'what_changed_since_yesterday' });
    expect(changed.messages[0].content).toMatchObject({ type: 'text', text: expect.stringContaining('1 new output(s)') });
    await client.close();
  });

  it('end to end: a client files a signal, runs a cycle and approves the output it produced', async () => {
    const d = shared.desk;
    const client = await writer();
    const signal = await callOk<{ id: string }>(client, 'add_signal', { title: 'Competitor cut prices by 20%', detail: 'Seen on their pricing page today', kind: 'news', priority: 'high' });
    const run = await callOk<{ status: string; produced: { artifactIds: string[]; createdTaskIds: string[] } }>(client, 'run_cycle_now');
    expect(run.status).toBe('completed');
    expect(run.produced.artifactIds).toHaveLength(1);
    const [outputId] = run.produced.artifactIds;
    const queue = await callOk<{ outputs: { id: string; taskId: string }[] }>(client, 'review_queue');
    expect(queue.outputs.map((o) => o.id)).toEqual([outputId]);
    const task = (await d.api('GET', `/api/v1/tasks/${queue.outputs[0].taskId}`)).body;
    expect(task.sourceSignalIds).toEqual([signal.id]);
    const approved = await callOk<{ decided: string[] }>(client, 'approve_outputs', { ids: [outputId] });
    expect(approved.decided).toEqual([outputId]);
    expect((await d.api('GET', `/api/v1/artifacts/${outputId}`)).body).toMatchObject({ status: 'approved', decidedAt: d.clock.now().toISOString() });
    expect((await callOk<{ approvalAging: { waiting: number } }>(client, 'review_queue')).approvalAging.waiting).toBe(0);
    await client.close();
  });
});
