/** /mcp: the MCP server over Streamable HTTP (stateless), each request with a bearer token and its tools backed by this service's own /v1. */
import { Hono } from 'hono';
import { createClient } from '../../src/client/client.js';
import { ApiError } from '../errors.js';
import type { TokenService } from '../services/tokens/token-service.js';
import type { AppEnv } from './context.js';

const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The MCP SDK and the tools, loaded by the first /mcp request: they are the slowest part of the service to load, and start-up needs neither. */
let mcpModules: Promise<[typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), typeof import('../../src/mcp/server.js')]> | undefined;
function loadMcp() {
  mcpModules ??= Promise.all([import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'), import('../../src/mcp/server.js')]);
  return mcpModules;
}

/**
 * A browser page may only reach /mcp from the service's own origin, localhost, or the allowlist: a foreign page
 * would otherwise drive the tools with a token it got the user to paste (DNS rebinding included). No Origin: not a browser.
 */
export function originAllowed(origin: string | undefined, host: string | undefined, allowlist: readonly string[]): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (host !== undefined && url.host === host) return true;
  if (LOCAL_HOSTS.has(url.hostname)) return true;
  return allowlist.includes(url.origin);
}

export function mcpRoutes(options: { tokens: TokenService; allowedOrigins: readonly string[]; fetchV1: (request: Request) => Response | Promise<Response> }) {
  const app = new Hono<AppEnv>();

  app.use('*', async function guardMcp(c, next) {
    const origin = c.req.header('origin');
    if (!originAllowed(origin, c.req.header('host'), options.allowedOrigins)) {
      throw new ApiError(403, 'origin_not_allowed', `Origin '${origin}' may not use /mcp. Allowed: this service's own origin, localhost, and MCP_ALLOWED_ORIGINS (${options.allowedOrigins.join(', ') || 'none set'}).`, { origin });
    }
    // Checked here, not only by /v1 behind the tools: a client learns of a bad token at connect time, with WWW-Authenticate.
    await options.tokens.authenticate(c.req.header('authorization'));
    await next();
  });

  // Stateless: no session, so nothing to stream to (GET) or end (DELETE).
  app.on(['GET', 'DELETE'], '/', (c) => {
    c.header('Allow', 'POST');
    return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `${c.req.method} /mcp is not supported: this server is stateless; send JSON-RPC with POST.` }, id: null }, 405);
  });

  app.post('/', async (c) => {
    const token = /^Bearer\s+(\S+)/i.exec(c.req.header('authorization') ?? '')![1]!;
    const origin = new URL(c.req.url).origin;
    // The tools call /v1 in-process with the caller's own token: the same abilities, gates and rate limit as REST.
    const client = createClient({
      baseUrl: origin,
      token,
      fetch: (input, init) => Promise.resolve(options.fetchV1(new Request(input, init))),
      // A 429 goes back to the agent as a tool error with the wait, rather than holding this request open.
      maxRetries: 0,
      userAgent: 'parlance-mcp',
    });
    const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await loadMcp();
    const server = createMcpServer(client);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });

  return app;
}
