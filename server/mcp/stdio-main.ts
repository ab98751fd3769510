/**
 * `npm run --silent mcp`: Desk's MCP server on stdio, for assistants that start their servers as
 * processes (Claude Desktop). It reaches the desk that runs on the data folder (DESK_DATA_DIR, as
 * `npm start`) through its /mcp, or, when none runs, starts one headless on that folder for the
 * length of the session. The MCP token comes from DESK_MCP_TOKEN. stdout carries only MCP
 * messages: everything else goes to stderr and the desk's log file.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromEnv, type DeskConfig } from '../config';
import { readDeskAddress } from '../core/desk-address';
import { mcpUrl } from '../domain/mcp-tokens/rules';
import type { RunningDesk } from '../start';
import { proxyStdioToDesk } from './stdio-proxy';

/** How long to wait for a desk that another process is starting on the same folder. */
const PEER_START_WAIT_MS = 20_000;

const here = path.dirname(fileURLToPath(import.meta.url));
const say = (message: string) => process.stderr.write(`desk mcp: ${message}\n`);

async function peerAddress(dataDir: string): Promise<string | null> {
  const deadline = Date.now() + PEER_START_WAIT_MS;
  while (Date.now() < deadline) {
    const found = readDeskAddress(dataDir);
    if (found) return found.url;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return null;
}

/** A headless desk on the folder; on a busy default port, any free one (the address file tells clients where). */
async function startHeadless(config: DeskConfig): Promise<RunningDesk> {
  // Loaded only here: proxying to a running desk needs none of the server's modules, and starts in a fraction of the time.
  const { startDesk } = await import('../start');
  try {
    return await startDesk(config);
  } catch (err) {
    if (process.env.DESK_PORT === undefined && err instanceof Error && /already in use/.test(err.message)) return startDesk({ ...config, port: 0 });
    throw err;
  }
}

async function main(): Promise<void> {
  const token = process.env.DESK_MCP_TOKEN?.trim();
  if (!token) {
    say('set DESK_MCP_TOKEN to an MCP token (issue one in Settings > Integrations)');
    process.exit(1);
  }
  const uiDir = path.join(here, '..', '..', 'out', 'renderer');
  const config: DeskConfig = { ...configFromEnv(), uiDir };
  let desk: RunningDesk | null = null;
  let url = readDeskAddress(config.dataDir)?.url ?? null;
  if (url === null) {
    try {
      desk = await startHeadless(config);
      url = desk.url;
      say(`started a desk on ${config.dataDir} at ${url} for this session`);
    } catch (err) {
      // Another process (an assistant's second session, npm start) took the folder meanwhile: use its desk.
      url = /Another Desk/.test(err instanceof Error ? err.message : '') ? await peerAddress(config.dataDir) : null;
      if (url === null) throw err;
    }
  }
  const session = await proxyStdioToDesk(new URL(mcpUrl(url)), token, { onError: say });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await desk?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  await session.closed;
  await stop(0);
}

main().catch((err: unknown) => {
  say(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
