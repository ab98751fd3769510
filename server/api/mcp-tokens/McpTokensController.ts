import { Body, Controller, Delete, Get, Path, Post, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { CreatedMcpToken, McpToken } from '../../domain/mcp-tokens/mcp-token-service';
import { mcpUrl, type McpTokenScope } from '../../domain/mcp-tokens/rules';
import type { Services } from '../../services';

export interface CreateMcpTokenBody {
  /**
   * Which assistant will use it, e.g. "Claude Desktop on the laptop"; "AI assistant" when left out. Trimmed.
   * @example "Claude Desktop"
   */
  label?: string;
  /** `read` (default): only the tools that change nothing; `write`: every tool, including approve, archive, add and Run now. */
  scope?: McpTokenScope;
}

/** A new MCP token: shown here once (only a hash of it is kept). */
export interface CreatedMcpTokenAnswer extends CreatedMcpToken {
  /** Where MCP clients connect over Streamable HTTP, with `Authorization: Bearer <token>`. */
  mcpUrl: string;
}

export interface McpTokenList {
  /** Active MCP tokens (at most 20), newest first; never the tokens. */
  mcpTokens: McpToken[];
  /** Where MCP clients connect over Streamable HTTP. */
  mcpUrl: string;
  /** The desk's data folder: `npm run mcp` given it as DESK_DATA_DIR reaches this desk. */
  dataDir: string;
}

/**
 * MCP tokens (beyond the spec): what an AI assistant (Claude Desktop, Cursor, VS Code, any Model
 * Context Protocol client) shows to Desk's MCP server at `/mcp` or through `npm run mcp`. Never
 * the workspace token: a token of its own, read-only or read-write, revoked at once. Every tool
 * call made with one is in the activity log (`mcp.tool_called`, the tool's name as the actor).
 */
@Route('api/v1/integrations/mcp-tokens')
@Tags('MCP tokens')
@Security('bearer')
export class McpTokensController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** Active MCP tokens, without the tokens (each shows a hint, its scope and when it was last used). */
  @Get()
  public async listMcpTokens(): Promise<McpTokenList> {
    return { mcpTokens: await this.s.mcpTokens.list(), mcpUrl: mcpUrl(this.s.localUrl), dataDir: this.s.config.dataDir };
  }

  /**
   * Issues an MCP token, logged as `mcp_token.created`. The answer is the only time the token is
   * shown. At most 20 active tokens.
   */
  @Post()
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>('409', '`limit_reached`: 20 MCP tokens are active; nothing was created')
  @Response<ErrorBody>('422', 'label out of bounds or scope unknown; nothing was created')
  public async createMcpToken(@Body() body: CreateMcpTokenBody): Promise<CreatedMcpTokenAnswer> {
    const created = await this.s.mcpTokens.create({ label: body.label, scope: body.scope });
    this.setStatus(201);
    return { ...created, mcpUrl: mcpUrl(this.s.localUrl) };
  }

  /**
   * Revokes an MCP token: from this answer on, a request with it is refused (401). Logged as
   * `mcp_token.revoked`. An unknown or already revoked id is a 404.
   */
  @Delete('{tokenId}')
  @Response<ErrorBody>('404', '`mcp_token_not_found`')
  public async revokeMcpToken(@Path() tokenId: string): Promise<McpToken> {
    return this.s.mcpTokens.revoke(tokenId);
  }
}
