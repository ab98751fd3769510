import { describe, expect, it } from 'vitest';
import { hashMcpToken, MAX_MCP_TOKEN_LABEL_LENGTH, MAX_MCP_TOKENS } from '../../domain/mcp-tokens/rules';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { issueMcpToken } from '../../testing/mcp';
import { useTestDesk } from '../../testing/use-test-desk';

const shared = useTestDesk();
const PATH = '/api/v1/integrations/mcp-tokens';

describe('MCP tokens', () => {
  it('issues one: shown once, only its SHA-256 hash kept, logged without the token', async () => {
    const d = shared.desk;
    const res = await d.api('POST', PATH, { label: '  Claude Desktop  ', scope: 'write' });
    expect(res.status).toBe(201);
    const created = res.body;
    expect(created).toEqual({
      id: expect.stringMatching(/^mcp_/),
      label: 'Claude Desktop',
      scope: 'write',
      tokenHint: `dskm_…${created.token.slice(-4)}`,
      createdAt: d.clock.now().toISOString(),
      lastUsedAt: null,
      token: expect.stringMatching(/^dskm_[A-Za-z0-9_-]{43}$/),
      mcpUrl: `${d.url}/mcp`,
    });
    const rows = await d.services.db.selectFrom('mcpTokens').selectAll().execute();
    expect(rows).toEqual([expect.objectContaining({ id: created.id, tokenHash: hashMcpToken(created.token), revokedAt: null })]);
    const activity = await d.services.db.selectFrom('activity').selectAll().execute();
    expect(JSON.stringify([rows, activity])).not.toContain(created.token);
    expect(activity.filter((a) => a.kind === 'mcp_token.created').map((a) => a.detail)).toEqual([`MCP token created: Claude Desktop (read and write, ${created.tokenHint})`]);

    const list = (await d.api('GET', PATH)).body;
    expect(list).toEqual({ mcpUrl: `${d.url}/mcp`, dataDir: d.dataDir, mcpTokens: [{ id: created.id, label: 'Claude Desktop', scope: 'write', tokenHint: created.tokenHint, createdAt: created.createdAt, lastUsedAt: null }] });
  });

  it('defaults to a read-only token labelled "AI assistant"', async () => {
    const created = (await shared.desk.api('POST', PATH, {})).body;
    expect(created).toMatchObject({ label: 'AI assistant', scope: 'read' });
  });

  it('refuses a bad label or scope, and past the cap, changing nothing', async () => {
    const d = shared.desk;
    await expectRejectedUnchanged(d, { method: 'POST', path: PATH, body: { label: 'x'.repeat(MAX_MCP_TOKEN_LABEL_LENGTH + 1) } }, { field: 'label' });
    await expectRejectedUnchanged(d, { method: 'POST', path: PATH, body: { label: '' } }, { field: 'label' });
    await expectRejectedUnchanged(d, { method: 'POST', path: PATH, body: { scope: 'admin' } }, { field: 'scope' });
    expect((await d.api('POST', PATH, { label: 'x'.repeat(MAX_MCP_TOKEN_LABEL_LENGTH) })).status).toBe(201);
    for (let i = 1; i < MAX_MCP_TOKENS; i++) await issueMcpToken(d, 'read', `token ${i}`);
    await expectRejectedUnchanged(d, { method: 'POST', path: PATH, body: {} }, { status: 409, error: 'limit_reached' });
  });

  it('revokes at once: the token is refused on /mcp, gone from the list, and a second revoke is a 404', async () => {
    const d = shared.desk;
    const issued = await issueMcpToken(d, 'write');
    const kept = await issueMcpToken(d, 'read');
    expect((await d.services.mcpTokens.resolve(issued.token))?.scope).toBe('write');
    const revoked = await d.api('DELETE', `${PATH}/${issued.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: issued.id, scope: 'write' });
    expect(revoked.body.token).toBeUndefined();
    expect(await d.services.mcpTokens.resolve(issued.token)).toBeNull();
    expect((await d.api('GET', PATH)).body.mcpTokens.map((t: { id: string }) => t.id)).toEqual([kept.id]);
    const detail = (await d.services.db.selectFrom('activity').select('detail').where('kind', '=', 'mcp_token.revoked').execute()).map((r) => r.detail);
    expect(detail).toEqual([`MCP token revoked: test write (${issued.tokenHint})`]);
    await expectRejectedUnchanged(d, { method: 'DELETE', path: `${PATH}/${issued.id}` }, { status: 404, error: 'mcp_token_not_found' });
  });

  it('needs the workspace token; an MCP token does not open the REST API', async () => {
    const d = shared.desk;
    const issued = await issueMcpToken(d, 'write');
    expect((await d.api('GET', PATH, undefined, null)).status).toBe(401);
    expect((await d.api('GET', PATH, undefined, issued.token)).status).toBe(401);
    expect((await d.api('GET', '/api/v1/workspace', undefined, issued.token)).status).toBe(401);
  });
});
