/**
 * /v1/integrations/github: link a GitHub App installation's repository to this project, list, show and unlink. Ability
 * `manage`. The GitHub App is the catalog's first code host but not a framework connector: the routes other connectors
 * have and a link has no counterpart for (configure, sync now, syncs) answer 405 naming what to do instead.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { ApiError } from '../../errors.js';
import { notFoundResponse, problem, problemResponses } from './schemas.js';
import { ById, conflict, itemsOf, json, projectId } from './route-shapes.js';
import { configPathProblem } from '../../../src/project-config/config-path-problem.js';
import { repositoryProblem } from '../../github-app/repository-problem.js';
import { branchProblem } from '../../integrations/branch-problem.js';

/** A string schema whose one check is `problem`, reported with its own message. */
function checkedString(problem: (value: string) => string | undefined) {
  return z.string().superRefine((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
}

const installationError = (issue: { input?: unknown }) => `Invalid installation_id ${JSON.stringify(issue.input)}. Expected the GitHub App installation's numeric id, such as 12345678.`;

const LinkRequest = z
  .object({
    installation_id: z.int({ error: installationError }).positive({ error: installationError }).openapi({ description: "The GitHub App installation's id (in the installation's settings URL)." }),
    repository: checkedString(repositoryProblem).openapi({ example: 'acme/web', description: '`owner/name`; the installation must have access to it.' }),
    base_branch: checkedString(branchProblem).default('main').openapi({ description: 'Branch the App watches and opens translation pull requests against. Default `main`.' }),
    config_path: checkedString(configPathProblem).default('parlance.yml').openapi({ description: 'Where the App reads `parlance.yml` in the repository. Default `parlance.yml`.' }),
  })
  .strict()
  .openapi('GithubLinkRequest');

const GithubLink = z
  .object({
    id: z.string(),
    installation_id: z.number().int(),
    repository: z.string(),
    base_branch: z.string(),
    config_path: z.string(),
    token_id: z.string().openapi({ description: 'The project token minted for the App (`github-app <repository>`, abilities push, pull, read, write). Its secret is never returned.' }),
    webhook_id: z.string().nullable().openapi({ description: "The subscription that sends the App `batch.completed` and `source_drift.repaired`; null if it was deleted through /v1/webhooks." }),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().openapi({ description: 'Why the link was disabled: the App was uninstalled, or lost access to the repository.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('GithubLink');

const notAllowed = { 405: problem('A GitHub link has no such operation; the problem names what to do instead') } as const;
const unavailable = {
  503: problem('The operator has not set PARLANCE_SECRET_KEY (`secret_key_missing`) or GITHUB_APP_EVENTS_URL (`github_app_not_configured`)'),
} as const;

export function integrationsRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/github',
      summary: 'Link a GitHub repository to this project',
      description:
        'Ability: `manage`. Mints a project token for the GitHub App (abilities push, pull, read and write: the App pushes source files, pulls translations, and imports translations edited by hand in the repository as human translations, which later machine translation does not overwrite), and subscribes the App to `batch.completed` and `source_drift.repaired`. Both secrets are stored encrypted with PARLANCE_SECRET_KEY and never returned.',
      middleware: [requireAbility('manage')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: LinkRequest } } } },
      responses: { 201: json('Linked', GithubLink), ...conflict('This repository and branch are already linked'), ...unavailable, ...problemResponses },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const link = await deps.githubLinks.link(projectId(c), {
        installationId: body.installation_id,
        repository: body.repository,
        baseBranch: body.base_branch,
        configPath: body.config_path,
      });
      return c.json(link, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/github',
      summary: "List this project's GitHub links, newest first",
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      responses: { 200: json('Links', itemsOf(GithubLink)), ...problemResponses },
    }),
    async (c) => c.json({ items: await deps.githubLinks.list(projectId(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/github/{id}',
      summary: 'One GitHub link',
      description: 'Ability: `manage`.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById },
      responses: { 200: json('The link', GithubLink), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.githubLinks.get(projectId(c), c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/github/{id}',
      summary: 'Unlink a GitHub repository',
      description: "Ability: `manage`. Revokes the App's token and deletes its webhook; the App stops acting on the repository.",
      middleware: [requireAbility('manage')] as const,
      request: { params: ById },
      responses: { 200: json('Unlinked; the link as it was', GithubLink), ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.githubLinks.unlink(projectId(c), c.req.valid('param').id), 200),
  );

  /** A link's routes that other connectors have: refused with what to do instead, once the link is known to exist. */
  const refuse = async (project: string, id: string, allow: string, what: (link: { id: string; repository: string; base_branch: string; config_path: string }) => string) => {
    const link = await deps.githubLinks.get(project, id);
    return new ApiError(405, 'github_link_operation_unsupported', what(link), {}, { allow });
  };
  const syncsOfTheApp = (link: { repository: string; base_branch: string }) =>
    `The GitHub App keeps no sync records: each push to '${link.base_branch}' of ${link.repository} becomes a batch (GET /v1/batches), shown on the commit's Parlance check run and in the translation pull request.`;

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/github/{id}',
      summary: 'Not for GitHub links: unlink and link again',
      description:
        "Ability: `manage`. Answers 405: a link's repository, base branch and config path are set when it is linked, what it translates is read from `parlance.yml` in the repository, and its token is minted by the service. To change one, unlink and link again.",
      middleware: [requireAbility('manage')] as const,
      request: { params: ById },
      responses: { ...notAllowed, ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      throw await refuse(projectId(c), id, 'GET, DELETE', (link) =>
        `A GitHub link has nothing to configure in place: its repository, base branch and config path are set when it is linked, what it translates is read from '${link.config_path}' in ${link.repository}, and the App's token is minted by the service. To change them, unlink it (DELETE /v1/integrations/github/${link.id}) and link again (POST /v1/integrations/github).`,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/github/{id}/sync',
      summary: 'Not for GitHub links: the App syncs on each push',
      description: 'Ability: `manage`. Answers 405: the GitHub App syncs when a commit is pushed to the linked base branch.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById },
      responses: { ...notAllowed, ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      throw await refuse(projectId(c), id, '', (link) =>
        `The GitHub App has no sync on demand: it syncs when a commit is pushed to '${link.base_branch}' of ${link.repository} (commits the App makes itself are skipped). Push to that branch to start one.`,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/github/{id}/syncs',
      summary: 'Not for GitHub links: the App keeps no sync records',
      description: "Ability: `manage`. Answers 405: each push the App acts on becomes a batch (`GET /v1/batches`), shown on the commit's check run.",
      middleware: [requireAbility('manage')] as const,
      request: { params: ById },
      responses: { ...notAllowed, ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      throw await refuse(projectId(c), c.req.valid('param').id, '', syncsOfTheApp);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/github/{id}/syncs/{sync_id}',
      summary: 'Not for GitHub links: the App keeps no sync records',
      description: 'Ability: `manage`. Answers 405, as `GET /v1/integrations/github/{id}/syncs` does.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById.extend({ sync_id: z.string().min(1) }) },
      responses: { ...notAllowed, ...notFoundResponse, ...problemResponses },
    }),
    async (c) => {
      throw await refuse(projectId(c), c.req.valid('param').id, '', syncsOfTheApp);
    },
  );

  return app;
}
