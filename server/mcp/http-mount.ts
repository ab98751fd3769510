import express, { type NextFunction, type Request, type Response } from 'express';
import type { Mount } from '../app';
import { bearerOf, tokenMatches } from '../api/auth';
import { DeskError, type ErrorBody } from '../core/errors';
import { MCP_PATH } from '../domain/mcp-tokens/rules';
import { hostileJson, originAllowed } from '../http-guards';
import type { Services } from '../services';

/** A JSON-RPC message or batch from an assistant: requests are small; the largest is a signal's detail. */
export const MCP_BODY_LIMIT = '256kb';

/**
 * The MCP SDK and Desk's tools, loaded at the first request to /mcp: the SDK was the largest import
 * of a desk start (with its schema libraries, most of a second of a 2-core machine) and most desks
 * are never asked by an assistant.
 */
let mcpModules: Promise<[typeof import('./mcp-server'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]> | undefined;
const loadMcp = () => (mcpModules ??= Promise.all([import('./mcp-server'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

const unauthorized = (message: string) => new DeskError(401, 'unauthorized', message);

/** The caller's MCP token, checked before any body is read; the workspace token does not open /mcp. */
async function accessOf(req: Request, services: Services) {
  const token = bearerOf(req);
  if (token === null) throw unauthorized('Missing bearer token: send Authorization: Bearer <MCP token> (issue one in Settings > Integrations)');
  const access = await services.mcpTokens.resolve(token);
  if (access !== null) return access;
  if (tokenMatches(token, services.token)) throw unauthorized('The workspace token does not open /mcp: issue an MCP token in Settings > Integrations');
  throw unauthorized('Invalid or revoked MCP token');
}

/** Stateless: no session to resume, so only POST carries messages (the specification's 405 for GET and DELETE). */
function methodNotAllowed(_req: Request, res: Response): void {
  res.setHeader('Allow', 'POST');
  res.status(405).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC messages to /mcp' }, id: null });
}

/**
 * `/mcp`: Desk's MCP server over Streamable HTTP, on the desk's own app behind its Host check.
 *
 * Stateless, with JSON answers: each POST is served by a server built for its caller's token and
 * closed with the response. Desk's tools answer once (no progress or server-initiated messages),
 * so a session would only add state to keep, expire and lose on restart; stateless also means a
 * revoked token is refused on its very next request, and the stdio proxy (stdio.ts) can forward
 * each message as it comes.
 */
export const mcpMount: Mount = (app, services) => {
  const parseJson = express.json({ limit: MCP_BODY_LIMIT, strict: false });
  app.use(MCP_PATH, (req: Request, res: Response, next: NextFunction) => {
    // The specification asks servers to check Origin on every request (the app's guard checks changes only).
    const origin = req.headers.origin;
    const arrival = { localPort: req.socket.localPort, localAddress: req.socket.localAddress };
    if (origin !== undefined && !originAllowed(origin, services.config.host, arrival)) {
      const body: ErrorBody = { error: 'origin_not_allowed', message: `MCP requests are not accepted from pages of another origin (${origin.slice(0, 100)})` };
      res.status(403).json(body);
      return;
    }
    next();
  });
  app.get(MCP_PATH, methodNotAllowed);
  app.delete(MCP_PATH, methodNotAllowed);
  app.post(MCP_PATH, (req: Request, res: Response, next: NextFunction) => {
    Promise.all([accessOf(req, services), loadMcp()]).then(
      ([access, [{ buildMcpServer }, { StreamableHTTPServerTransport }]]) =>
        parseJson(req, res, (err?: unknown) => {
          if (err !== undefined) return next(err);
          const problem = req.body === undefined ? null : hostileJson(req.body);
          if (problem !== null) return next(new DeskError(400, 'malformed_body', `The request body ${problem}`));
          const server = buildMcpServer(services, access);
          const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
          res.on('close', () => {
            void transport.close();
            void server.close();
          });
          server
            .connect(transport)
            .then(() => transport.handleRequest(req, res, req.body))
            .catch(next);
        }),
      next,
    );
  });
};
