/** `parlance mcp`: the MCP server over stdio, acting with the project token; stdout carries nothing but the protocol. */
import { noMorePositionals, type Command } from './command.js';

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'The MCP server over stdio, for coding agents (tools act with the token)',
  help: `Usage: parlance mcp [--token <token>] [--service <url>]

Serves the Model Context Protocol on stdin/stdout: 16 tools (get_project, push_file, pull_file,
upsert_translation, translate_missing, batches, QA, glossary) that act with the token's abilities.
Add it to an MCP client as a stdio server: command 'parlance', args ['mcp'], env PARLANCE_TOKEN.
Retries and errors go to stderr; stdout is the protocol alone.`,
  options: {},
  async run(context, { positionals }) {
    noMorePositionals(positionals, 0, 'parlance mcp [--token <token>] [--service <url>]');
    // Made before connecting, so a missing token is a usage error on stderr, not a server that fails every call.
    const client = context.client();
    // Loaded here, not on import: the MCP SDK takes longer to load than the rest of the CLI, and `parlance --help` needs none of it.
    const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js'), import('../../mcp/server.js')]);
    const server = createMcpServer(client);
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = resolve;
      // The client ends the session by closing our stdin; the SDK's transport does not watch for that itself.
      process.stdin.once('end', () => void server.close());
    });
    await server.connect(transport);
    await closed;
    return 0;
  },
};
