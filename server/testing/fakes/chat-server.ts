import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * For tests: an OpenAI-compatible chat-completions server on 127.0.0.1 (free port). Each POST
 * /v1/chat/completions takes the next queued answer (the last one repeats); the requests are kept
 * with their parsed bodies and Authorization header.
 */

export type ChatAnswer =
  /** A completion whose message content is this text (JSON text for the cycle's structured answer). */
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number }; finishReason?: string; refusal?: string }
  /** An HTTP error with an OpenAI-style error body. */
  | { status: number; message: string }
  /** Never answers (for timeouts). */
  | { hang: true };

export interface ChatServer {
  /** The base URL to configure (…/v1). */
  baseUrl: string;
  answer(...answers: ChatAnswer[]): void;
  requests: { authorization: string | null; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function startChatServer(): Promise<ChatServer> {
  let queue: ChatAnswer[] = [];
  const requests: ChatServer['requests'] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // kept empty: the test sees what arrived
      }
      requests.push({ authorization: (req.headers.authorization as string | undefined) ?? null, body });
      const next = queue.length > 1 ? queue.shift()! : queue[0];
      if (!next) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'no answer queued' } }));
        return;
      }
      if ('hang' in next) {
        open.add(res);
        return;
      }
      if ('status' in next) {
        // retry-after-ms keeps the SDK's backoff between retries at a millisecond.
        res.writeHead(next.status, { 'content-type': 'application/json', 'retry-after-ms': '1' }).end(JSON.stringify({ error: { message: next.message, type: 'server_error' } }));
        return;
      }
      const completion = {
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: 1_764_000_000,
        model: String(body.model ?? ''),
        choices: [{ index: 0, finish_reason: next.finishReason ?? 'stop', message: { role: 'assistant', content: next.content, refusal: next.refusal ?? null } }],
        usage: next.usage ? { ...next.usage, total_tokens: next.usage.prompt_tokens + next.usage.completion_tokens } : undefined,
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    answer(...answers) {
      queue = answers;
    },
    requests,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
