/** The /v1 HTTP application: authentication and rate limit in front, one sub-app per resource, problem+json errors. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '../errors.js';
import { authRoutes } from '../routes/v1/auth.js';
import { batchesRoutes } from '../routes/v1/batches.js';
import { invitationsRoutes, membersRoutes } from '../routes/v1/members.js';
import { progressRoutes } from '../routes/v1/progress.js';
import { glossaryRoutes } from '../routes/v1/glossary.js';
import { integrationsRoutes } from '../routes/v1/integrations.js';
import { filesRoutes } from '../routes/v1/files.js';
import { keysRoutes } from '../routes/v1/keys.js';
import { webhookEventsRoutes } from '../routes/v1/webhook-events.js';
import { webhooksRoutes } from '../routes/v1/webhooks.js';
import { memoryRoutes } from '../routes/v1/memory.js';
import { qaRoutes } from '../routes/v1/qa.js';
import { translationsRoutes } from '../routes/v1/translations.js';
import { translationsUploadRoutes } from '../routes/v1/translations-upload.js';
import { projectRoutes } from '../routes/v1/project.js';
import { translationSettingsRoutes } from '../routes/v1/translation-settings.js';
import { pullRoutes } from '../routes/v1/pull.js';
import { pushRoutes } from '../routes/v1/push.js';
import { tokensRoutes } from '../routes/v1/tokens.js';
import { translateMissingRoutes } from '../routes/v1/translate-missing.js';
import { releasesRoutes } from '../routes/v1/releases.js';
import { storageTargetsRoutes } from '../routes/v1/storage-targets.js';
import { importsRoutes } from '../routes/v1/imports.js';
import { connectorsRoutes } from '../routes/v1/connectors.js';
import { HOOK_BODY_BYTES, hookRoutes } from '../integrations/hook-routes.js';
import { cdnRoutes } from '../delivery/cdn-routes.js';
import type { CdnStore } from '../delivery/cdn-store.js';
import type { AppDeps, AppEnv } from './context.js';
import { mcpRoutes } from './mcp-route.js';
import { bodyLimit, documentBodyLimits, type BodyLimitTable } from './middleware/body-limit.js';
import { authenticate } from './middleware/rate-limit.js';
import { securityHeaders } from './middleware/security-headers.js';
import { problemResponse, toApiError } from './problem.js';
import { REFERENCE_PAGE_CSP, renderReferencePage } from './reference-page.js';
import { consoleRoutes } from '../web/console-routes.js';

const PUBLIC_PATHS = ['/v1/openapi.json', '/v1/reference'] as const;

/**
 * Bodies read before anyone is known: a constant, not a setting, for the account routes' bodies are an address, a
 * password, a name (the largest, a project with 500 locale tags, is about 7 KB), so there is nothing to tune and a
 * setting could only widen what anyone may send. MAX_JSON_BODY_BYTES is a setting: JSON bodies grow with the caller's
 * project (POST /v1/qa/run takes up to 100,000 keys), and an operator may need more without a release.
 */
const ANONYMOUS_BODY_BYTES = 16 * 1024;

export const API_DESCRIPTION =
  'Parlance localization service. Every request carries `Authorization: Bearer <token>`; a token belongs to one project and carries abilities (push, pull, read, write, manage). Errors are `application/problem+json` with a stable `code`. 60 requests per minute per token. People use the same API: `/v1/auth` signs them in with a session cookie and hands out short-lived credentials bound to one project with the abilities of their role there.';

/** `mcpAllowedOrigins`: config.mcp.allowedOrigins (MCP_ALLOWED_ORIGINS), browser origins allowed on /mcp besides the service's own and localhost. */
export function createApp(deps: AppDeps & { cdn: CdnStore }, options: { mcpAllowedOrigins?: readonly string[] } = {}) {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const errors = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
        const first = errors[0];
        throw new ApiError(422, 'validation_failed', first ? `Invalid request: ${first.path || '(body)'}: ${first.message}` : 'Invalid request.', { errors });
      }
    },
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'A project token: `prl_` followed by 38 letters and digits.' });

  app.use('*', securityHeaders({ htmlPolicy: REFERENCE_PAGE_CSP }));
  // Every route's body limit, before routing and authentication: a route not named here gets the JSON default.
  const bodyLimits: BodyLimitTable = {
    fallback: { bytes: deps.maxJsonBodyBytes, setting: 'MAX_JSON_BODY_BYTES' },
    rules: [
      // The whole prefix: it checks its session cookie itself, after this limit.
      { path: '/v1/auth/*', bytes: ANONYMOUS_BODY_BYTES, why: 'before sign-in' },
      { path: '/v1/push', bytes: deps.maxUploadBytes, setting: 'MAX_UPLOAD_BYTES' },
      { path: '/v1/imports', bytes: deps.maxUploadBytes, setting: 'MAX_UPLOAD_BYTES' },
      { path: '/v1/translations/upload', bytes: deps.maxUploadBytes, setting: 'MAX_UPLOAD_BYTES' },
      { path: '/v1/memory/import', bytes: deps.maxUploadBytes, setting: 'MAX_UPLOAD_BYTES' },
      // A design tool's file for the connectors that read one (Sketch, Penpot).
      { path: '/v1/integrations/{connector}/{id}/file', bytes: deps.maxUploadBytes, setting: 'MAX_UPLOAD_BYTES' },
      // The push_file tool carries a whole source file in its JSON-RPC body.
      { path: '/mcp', bytes: deps.maxUploadBytes, setting: 'MAX_UPLOAD_BYTES' },
      { path: '/hooks/*', bytes: HOOK_BODY_BYTES, why: '(notifications)' },
    ],
  };
  app.use('*', bodyLimit(bodyLimits));
  app.openAPIRegistry.registerComponent('responses', 'PayloadTooLarge', {
    description: 'The request body is over the operation\'s `x-body-limit` bytes (`payload_too_large`); the connection is closed.',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  });
  // Not under /v1: it authenticates each request itself, and its tools go through /v1 (and its middleware) in-process.
  app.route('/mcp', mcpRoutes({ tokens: deps.tokens, allowedOrigins: options.mcpAllowedOrigins ?? [], fetchV1: (request) => app.fetch(request) }));
  app.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'parlance_session',
    description: 'The console session cookie set by /v1/auth/sign-in (`__Host-parlance_session` over TLS). Used only by /v1/auth routes; state-changing requests must come from the same origin.',
  });
  app.use('/v1/*', authenticate({ tokens: deps.tokens, limiter: deps.limiter, publicPaths: PUBLIC_PATHS, ownPrefixes: ['/v1/auth/'] }));

  app.route('/v1/auth', authRoutes(deps));
  app.route('/v1/members', membersRoutes(deps));
  app.route('/v1/invitations', invitationsRoutes(deps));
  app.route('/v1/progress', progressRoutes(deps));
  app.route('/v1/tokens', tokensRoutes(deps));
  app.route('/v1/push', pushRoutes(deps));
  app.route('/v1/pull', pullRoutes(deps));
  app.route('/v1/translate-missing', translateMissingRoutes(deps));
  app.route('/v1/batches', batchesRoutes(deps));
  app.route('/v1/glossary', glossaryRoutes(deps));
  app.route('/v1/translations', translationsUploadRoutes(deps));
  app.route('/v1/translations', translationsRoutes(deps));
  app.route('/v1/qa', qaRoutes(deps));
  app.route('/v1/memory', memoryRoutes(deps));
  app.route('/v1/keys', keysRoutes(deps));
  app.route('/v1/files', filesRoutes(deps));
  // The catalog first: `/v1/webhooks/events` is not a webhook id.
  app.route('/v1/webhooks', webhookEventsRoutes(deps));
  app.route('/v1/webhooks', webhooksRoutes(deps));
  app.route('/v1/integrations', integrationsRoutes(deps));
  // After the GitHub App's routes: `/v1/integrations/github` stays theirs.
  app.route('/v1/integrations', connectorsRoutes(deps));
  app.route('/v1/releases', releasesRoutes(deps));
  app.route('/v1/storage-targets', storageTargetsRoutes(deps));
  app.route('/v1/imports', importsRoutes(deps));
  app.route('/v1', projectRoutes(deps));
  app.route('/v1', translationSettingsRoutes(deps));

  const document = () =>
    documentBodyLimits(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: { title: 'Parlance API', version: '1', description: `${API_DESCRIPTION} A request body is limited to ${deps.maxJsonBodyBytes} bytes unless its operation says otherwise (\`x-body-limit\`); a larger one gets 413 \`payload_too_large\`.` },
        servers: [{ url: '/' }],
        security: [{ bearer: [] }],
      }),
      bodyLimits,
    );
  app.get('/v1/openapi.json', (c) => c.json(document()));
  app.get('/v1/reference', (c) => c.html(renderReferencePage(document() as Parameters<typeof renderReferencePage>[0])));
  // Public and unauthenticated, outside /v1: the address's bundle id is the only key (server/delivery/cdn-routes.ts).
  app.route('/cdn', cdnRoutes({ store: deps.cdn }));
  // Public: remote systems' change notifications, each verified by its connector (server/integrations/hook-routes.ts).
  app.route('/hooks', hookRoutes({ connections: deps.connections, log: deps.log }));
  app.route('/', consoleRoutes());
  app.get('/healthz', (c) => c.json({ ok: true }));

  app.notFound((c) => problemResponse(c, new ApiError(404, 'not_found', `No route ${c.req.method} ${c.req.path}. See /v1/reference.`)));
  app.onError((error, c) => problemResponse(c, toApiError(error, deps.log)));

  return app;
}

export type ParlanceApp = ReturnType<typeof createApp>;
