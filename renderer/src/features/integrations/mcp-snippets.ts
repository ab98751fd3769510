/**
 * The MCP client configurations Settings shows (and the README prints): Claude Desktop, which
 * starts `npm run mcp` over stdio, and any client that speaks Streamable HTTP. The token is filled
 * in once issued; before that, a placeholder says what goes there.
 */

export const TOKEN_PLACEHOLDER = '<your MCP token>';
/** The folder holding Desk's package.json (where `npm start` runs): the UI cannot know it. */
export const DESK_FOLDER_PLACEHOLDER = '/path/to/desk';

export function claudeDesktopConfig({ token, dataDir }: { token: string | null; dataDir: string }): string {
  const config = {
    mcpServers: {
      desk: {
        command: 'npm',
        args: ['run', '--silent', '--prefix', DESK_FOLDER_PLACEHOLDER, 'mcp'],
        env: { DESK_MCP_TOKEN: token ?? TOKEN_PLACEHOLDER, DESK_DATA_DIR: dataDir },
      },
    },
  };
  return JSON.stringify(config, null, 2);
}

export function streamableHttpConfig({ token, mcpUrl }: { token: string | null; mcpUrl: string }): string {
  const config = { mcpServers: { desk: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${token ?? TOKEN_PLACEHOLDER}` } } } };
  return JSON.stringify(config, null, 2);
}
