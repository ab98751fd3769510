import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC's "server error" range: the desk could not be reached or refused the token. */
const DESK_UNREACHABLE = -32000;

const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: string | number; method: string } => 'method' in m && 'id' in m;

/**
 * Carries an assistant's MCP messages between stdio and a desk's `/mcp`, unchanged: the desk's
 * own server answers them (its tools, token check and activity log), so stdio and HTTP are one
 * server. A message the desk could not take (unreachable, token refused) is answered with a
 * JSON-RPC error naming why, so the assistant shows the reason instead of waiting.
 */
export async function proxyStdioToDesk(endpoint: URL, token: string, io: { stdin?: Readable; stdout?: Writable; onError?: (message: string) => void } = {}): Promise<{ closed: Promise<void> }> {
  const local = new StdioServerTransport(io.stdin, io.stdout);
  const remote = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const report = io.onError ?? (() => {});
  // The protocol version agreed at initialize goes on every later request, as the SDK's own client does.
  const initializeIds = new Set<string | number>();
  remote.onmessage = (message) => {
    if ('result' in message && message.id !== undefined && initializeIds.delete(message.id)) {
      const agreed = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof agreed === 'string') remote.setProtocolVersion(agreed);
    }
    void local.send(message);
  };
  remote.onerror = (err) => report(`desk connection: ${err.message}`);
  local.onmessage = (message) => {
    if (isRequest(message) && message.method === 'initialize') initializeIds.add(message.id);
    remote.send(message).catch((err: unknown) => {
      const why = err instanceof Error ? err.message : String(err);
      report(`could not forward ${isRequest(message) ? message.method : 'a message'}: ${why}`);
      if (isRequest(message)) void local.send({ jsonrpc: '2.0', id: message.id, error: { code: DESK_UNREACHABLE, message: `Desk did not take the request: ${why}` } });
    });
  };
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => {
      void remote.close().finally(resolve);
    };
  });
  await remote.start();
  await local.start();
  // The SDK's stdio transport does not notice the end of its input: the assistant closing it ends the session.
  (io.stdin ?? process.stdin).once('end', () => void local.close());
  return { closed };
}
