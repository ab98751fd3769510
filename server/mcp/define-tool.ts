import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { McpAccess, McpCallNote } from '../domain/mcp-tokens/mcp-token-service';
import type { Services } from '../services';
import { answer, refusing } from './results';

/** What every tool of one connection works with: the desk's services and who is calling. */
export interface ToolContext {
  services: Services;
  access: McpAccess;
}

/**
 * `read`: changes nothing (read-only tokens see it). `change`: changes the desk in one transaction
 * with its activity row. `long`: changes the desk but must not hold a transaction (a whole cycle).
 */
export type ToolEffect = 'read' | 'change' | 'long';

export interface ToolSpec<S extends z.ZodRawShape, T extends object> {
  name: string;
  title: string;
  /** Says what the tool changes, so clients can tell the user before they allow it. */
  description: string;
  input: S;
  effect: ToolEffect;
  /** The hints beyond readOnlyHint (which follows `effect`). */
  hints?: Omit<ToolAnnotations, 'readOnlyHint' | 'title'>;
  run: (args: z.infer<z.ZodObject<S>>) => Promise<T>;
  /** The answer's text: what a person reads. */
  text: (result: T) => string;
  /** The call's activity row. */
  note: (result: T) => McpCallNote;
}

/**
 * Registers one tool: input checked by its schema (the SDK answers a tool error naming the field),
 * the work and its activity row through McpTokenService.call, the domain's refusals as tool errors.
 * A tool that changes the desk is disabled (hidden and refused) for a read-only token.
 */
export function defineTool<S extends z.ZodRawShape, T extends object>(server: McpServer, ctx: ToolContext, spec: ToolSpec<S, T>): RegisteredTool {
  const readOnly = spec.effect === 'read';
  const registered = server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: spec.input,
      annotations: { title: spec.title, readOnlyHint: readOnly, openWorldHint: false, ...(readOnly ? {} : { destructiveHint: false }), ...spec.hints },
    },
    // The SDK types a handler per input shape; this one serves every shape the same way.
    (async (args: z.infer<z.ZodObject<S>>) =>
      refusing(async () => {
        const result = await ctx.services.mcpTokens.call(ctx.access, spec.name, () => spec.run(args), spec.note, { atomic: spec.effect === 'change' });
        return answer(spec.text(result), result);
      })) as unknown as Parameters<McpServer['registerTool']>[2],
  );
  if (!readOnly && ctx.access.scope !== 'write') registered.disable();
  return registered;
}
