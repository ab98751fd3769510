import { describe, expect, it } from 'vitest';
import { claudeDesktopConfig, streamableHttpConfig, TOKEN_PLACEHOLDER } from './mcp-snippets';

describe('MCP client configurations', () => {
  it('Claude Desktop starts npm run mcp with the token and data folder in its environment', () => {
    const config = JSON.parse(claudeDesktopConfig({ token: 'dskm_abc', dataDir: '/home/me/.local/share/desk' }));
    expect(config).toEqual({
      mcpServers: { desk: { command: 'npm', args: ['run', '--silent', '--prefix', '/path/to/desk', 'mcp'], env: { DESK_MCP_TOKEN: 'dskm_abc', DESK_DATA_DIR: '/home/me/.local/share/desk' } } },
    });
  });

  it('a Streamable HTTP client gets the URL and the bearer header; a placeholder until a token is issued', () => {
    expect(JSON.parse(streamableHttpConfig({ token: 'dskm_abc', mcpUrl: 'http://127.0.0.1:4477/mcp' }))).toEqual({
      mcpServers: { desk: { type: 'http', url: 'http://127.0.0.1:4477/mcp', headers: { Authorization: 'Bearer dskm_abc' } } },
    });
    expect(streamableHttpConfig({ token: null, mcpUrl: 'http://127.0.0.1:4477/mcp' })).toContain(`Bearer ${TOKEN_PLACEHOLDER}`);
  });
});
