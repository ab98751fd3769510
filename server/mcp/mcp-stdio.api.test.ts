import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ADDRESS_FILE, readDeskAddress } from '../core/desk-address';
import { startTestDesk, type TestDesk } from '../testing/desk';
import { callOk, callTool, issueMcpToken, textOf } from '../testing/mcp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

let desk: TestDesk | null = null;
let client: Client | null = null;
afterEach(async () => {
  await client?.close();
  client = null;
  await desk?.stop();
  desk = null;
});

/** `npm run mcp`'s own command (package.json), spawned as an assistant spawns it, with the token and data folder in its environment. */
async function stdioClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const [command, ...args] = pkg.scripts.mcp.split(' ');
  const transport = new StdioClientTransport({ command: command === 'node' ? process.execPath : command, args, cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const c = new Client({ name: 'desk-stdio-test', version: '1.0.0' });
  await c.connect(transport);
  return { client: c, stderr: () => stderr };
}

// Each test spawns `npm run mcp` from source (node --import tsx); the last one also starts a desk in that process.
describe('npm run mcp (stdio)', { timeout: 90_000 }, () => {
  it('reaches the desk running on the data folder: its tools, its token check, its activity log', async () => {
    desk = await startTestDesk();
    expect(readDeskAddress(desk.dataDir)).toEqual({ pid: process.pid, url: desk.url });
    const { token } = await issueMcpToken(desk, 'write', 'Claude Desktop');
    ({ client } = await stdioClient({ DESK_DATA_DIR: desk.dataDir, DESK_MCP_TOKEN: token }));
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(12);
    const signal = await callOk<{ id: string }>(client, 'add_signal', { title: 'Filed over stdio' });
    // Filed in the test's own desk (the proxy holds no server of its own), on its clock.
    expect((await desk.api('GET', `/api/v1/signals/${signal.id}`)).body).toMatchObject({ title: 'Filed over stdio', createdAt: desk.clock.now().toISOString() });
    const refused = await callTool(client, 'add_note', { taskId: 'tsk_nope', text: 'hi' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/task_not_found/);
    const run = await callOk<{ status: string; produced: { artifactIds: string[] } }>(client, 'run_cycle_now');
    expect(run.status).toBe('completed');
    const approved = await callOk<{ decided: string[] }>(client, 'approve_outputs', { allReady: true });
    expect(approved.decided).toEqual(run.produced.artifactIds);
    const calls = await desk.services.db.selectFrom('activity').select('actorLabel').where('kind', '=', 'mcp.tool_called').orderBy('id').execute();
    expect(calls.map((c) => c.actorLabel)).toEqual(['mcp:add_signal', 'mcp:run_cycle_now', 'mcp:approve_outputs']);
  });

  it('answers a refused token with an error naming why', async () => {
    desk = await startTestDesk();
    const issued = await issueMcpToken(desk, 'read');
    expect((await desk.api('DELETE', `/api/v1/integrations/mcp-tokens/${issued.id}`)).status).toBe(200);
    const transport = stdioClient({ DESK_DATA_DIR: desk.dataDir, DESK_MCP_TOKEN: issued.token });
    await expect(transport).rejects.toThrow(/Desk did not take the request.*Invalid or revoked MCP token/s);
  });

  it('starts a desk of its own on the folder when none runs, and stops it when the session ends', async () => {
    const first = await startTestDesk();
    const { token } = await issueMcpToken(first, 'read');
    const dataDir = first.dataDir;
    await first.stop({ keepDataDir: true });
    expect(fs.existsSync(path.join(dataDir, ADDRESS_FILE))).toBe(false);
    try {
      const session = await stdioClient({ DESK_DATA_DIR: dataDir, DESK_MCP_TOKEN: token, DESK_PORT: '0' });
      client = session.client;
      const status = await callOk<{ loopState: string }>(client, 'loop_status');
      expect(status.loopState).toBe('on');
      const address = readDeskAddress(dataDir);
      expect(address).not.toBeNull();
      expect(address?.pid).not.toBe(process.pid);
      expect(session.stderr()).toContain(`started a desk on ${dataDir}`);
      await client.close();
      client = null;
      // The session's desk is gone with it (stopped, or killed by the client after its grace period:
      // a lock left then is stale and taken over), so a desk starts on the folder again.
      await expect.poll(() => readDeskAddress(dataDir), { timeout: 15_000 }).toBeNull();
      const again = await startTestDesk({ dataDir });
      expect((await again.api('GET', '/api/v1/integrations/mcp-tokens')).body.mcpTokens).toHaveLength(1);
      await again.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
