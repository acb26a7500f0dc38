/** /v1/tokens: mint (secret shown once), list (never the secret), revoke. Ability `manage`. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { publicToken } from '../../services/tokens/token-service.js';
import { Ability, Token, notFoundResponse, problemResponses } from './schemas.js';
import { ById, itemsOf, json, projectId } from './route-shapes.js';

const MintRequest = z
  .object({
    name: z.string().min(1).max(100).openapi({ example: 'GitHub Actions' }),
    abilities: z.array(Ability).min(1).optional().openapi({ description: 'Defaults to the deploy subset: push, pull, read.' }),
    expires_in_days: z.number().int().min(1).max(3650).optional().openapi({ description: 'Omit for a token that does not expire.' }),
  })
  .openapi('MintTokenRequest');

const MintResponse = Token.extend({ secret: z.string().openapi({ description: 'The token. Shown only in this response.' }) }).openapi('MintedToken');

export function tokensRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      summary: 'Mint a token for this project',
      description: 'Ability: `manage`. Organisations on the free plan cannot mint API tokens (403 `plan_forbids_tokens`).',
      middleware: [requireAbility('manage')] as const,
      request: { body: { content: { 'application/json': { schema: MintRequest } }, required: true } },
      responses: { 201: json('Minted', MintResponse), ...problemResponses },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const auth = c.get('auth');
      const { token, secret } = await deps.tokens.mint({
        projectId: auth.project.id,
        name: body.name,
        ...(body.abilities ? { abilities: body.abilities } : {}),
        ...(body.expires_in_days ? { expiresAt: new Date(Date.now() + body.expires_in_days * 86_400_000) } : {}),
      });
      return c.json({ ...publicToken(token), secret }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: "List this project's tokens",
      description: 'Ability: `manage`. Secrets are never returned.',
      middleware: [requireAbility('manage')] as const,
      responses: { 200: json('Tokens, newest first', itemsOf(Token)), ...problemResponses },
    }),
    async (c) => {
      const tokens = await deps.tokens.list(projectId(c));
      return c.json({ items: tokens.map(publicToken) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      summary: 'Revoke a token',
      description: 'Ability: `manage`. A revoked token gets 401 `token_revoked` from then on.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById },
      responses: { 200: json('Revoked', Token), ...problemResponses, ...notFoundResponse },
    }),
    async (c) => {
      const token = await deps.tokens.revoke(projectId(c), c.req.valid('param').id);
      return c.json(publicToken(token), 200);
    },
  );

  return app;
}
