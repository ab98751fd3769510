import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * For tests: an OpenAI-compatible server on 127.0.0.1 (free port), scripted like the servers
 * people point Desk at. Each POST /v1/chat/completions takes the next queued answer (the last one
 * repeats; a function answer is called with the request body); GET /v1/models lists `models`.
 * `structuredOutput` says how much of structured output the server supports: a request asking for
 * more gets the 400 such servers answer. Requests are kept with their parsed bodies and
 * Authorization header.
 */

export type ChatReply =
  /** A completion whose message content is this text (JSON text for the cycle's structured answer). */
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number }; finishReason?: string; refusal?: string }
  /** An HTTP error with an OpenAI-style error body; `retryAfter` is sent as the Retry-After header. */
  | { status: number; message: string; retryAfter?: string; code?: string }
  /** Never answers (for timeouts and cancelling). */
  | { hang: true }
  /** Accepts the connection, then closes it without an answer. */
  | { drop: true };

export type ChatAnswer = ChatReply | ((body: Record<string, unknown>) => ChatReply);

/** How much structured output the server takes: `json_schema` all of it, `none` not even tools. */
export type ServerStructuredOutput = 'json_schema' | 'json_object' | 'tools' | 'none';

export interface ChatServer {
  /** The base URL to configure (…/v1). */
  baseUrl: string;
  answer(...answers: ChatAnswer[]): void;
  /** What GET /v1/models lists (ids), or an error it answers with. Default: ['gpt-4o-mini']. */
  models: string[] | { status: number; message: string };
  /** Default `json_schema`. */
  structuredOutput: ServerStructuredOutput;
  /** When set, requests without `Authorization: Bearer <key>` get 401 (as OpenAI answers). */
  requiredKey: string | null;
  requests: { method: string; path: string; authorization: string | null; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

const RANK: Record<ServerStructuredOutput, number> = { none: 0, tools: 1, json_object: 2, json_schema: 3 };

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** What a request asks for: json_schema / json_object through response_format, tools through a forced tool call. */
function asks(body: Record<string, unknown>): ServerStructuredOutput {
  const format = (body.response_format as { type?: string } | undefined)?.type;
  if (format === 'json_schema') return 'json_schema';
  if (format === 'json_object') return 'json_object';
  if (Array.isArray(body.tools) && body.tools.length > 0) return 'tools';
  return 'none';
}

export async function startChatServer(): Promise<ChatServer> {
  let queue: ChatAnswer[] = [];
  const open = new Set<http.ServerResponse>();
  const state: ChatServer = {
    baseUrl: '',
    answer(...answers) {
      queue = answers;
    },
    models: ['gpt-4o-mini'],
    structuredOutput: 'json_schema',
    requiredKey: null,
    requests: [],
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      let body: Record<string, unknown> = {};
      try {
        if (raw !== '') body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // kept empty: the test sees what arrived
      }
      const authorization = (req.headers.authorization as string | undefined) ?? null;
      state.requests.push({ method: req.method ?? '', path, authorization, body });
      if (state.requiredKey !== null && authorization !== `Bearer ${state.requiredKey}`) {
        json(res, 401, { error: { message: `Incorrect API key provided: ${authorization?.slice(7) ?? ''}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
        return;
      }
      if (req.method === 'GET' && path === '/v1/models') {
        const m = state.models;
        if (Array.isArray(m)) json(res, 200, { object: 'list', data: m.map((id) => ({ id, object: 'model', created: 1_764_000_000, owned_by: 'test' })) });
        else json(res, m.status, { error: { message: m.message } });
        return;
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        json(res, 404, { error: { message: 'not found' } });
        return;
      }
      const wanted = asks(body);
      if (RANK[wanted] > RANK[state.structuredOutput]) {
        const what = wanted === 'tools' ? 'tools' : `response_format ${wanted}`;
        json(res, 400, { error: { message: `${what} is not supported by this server`, type: 'invalid_request_error', param: wanted === 'tools' ? 'tools' : 'response_format' } });
        return;
      }
      const head = queue.length > 1 ? queue.shift()! : queue[0];
      if (!head) {
        json(res, 500, { error: { message: 'no answer queued' } });
        return;
      }
      const next = typeof head === 'function' ? head(body) : head;
      if ('hang' in next) {
        open.add(res);
        return;
      }
      if ('drop' in next) {
        req.socket.destroy();
        return;
      }
      if ('status' in next) {
        // Without a Retry-After, retry-after-ms keeps an SDK's backoff between retries at a millisecond.
        const headers: Record<string, string> = next.retryAfter !== undefined ? { 'retry-after': next.retryAfter } : { 'retry-after-ms': '1' };
        json(res, next.status, { error: { message: next.message, type: 'server_error', code: next.code ?? null } }, headers);
        return;
      }
      const message =
        wanted === 'tools'
          ? { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: `call_${state.requests.length}`, type: 'function', function: { name: toolName(body), arguments: next.content } }] }
          : { role: 'assistant', content: next.content, refusal: next.refusal ?? null };
      json(res, 200, {
        id: `chatcmpl-${state.requests.length}`,
        object: 'chat.completion',
        created: 1_764_000_000,
        model: String(body.model ?? ''),
        choices: [{ index: 0, finish_reason: next.finishReason ?? (wanted === 'tools' ? 'tool_calls' : 'stop'), message }],
        usage: next.usage ? { ...next.usage, total_tokens: next.usage.prompt_tokens + next.usage.completion_tokens } : undefined,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://127.0.0.1:${port}/v1`;
  state.close = async () => {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

function toolName(body: Record<string, unknown>): string {
  const tools = body.tools as { function?: { name?: string } }[];
  return tools[0]?.function?.name ?? 'answer';
}
