/** /v1/members and /v1/invitations: the people of the project's organisation, their role here, and seats. Ability `manage`. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import { ROLES } from '../../services/people/roles-fns.js';
import { Ability, notFoundResponse, problem, problemResponses } from './schemas.js';
import { ById, itemsOf, json } from './route-shapes.js';

const Role = z.enum(ROLES).openapi('Role');

const Member = z
  .object({
    user_id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: Role.openapi({ description: 'The role on this project.' }),
    organisation_role: Role.openapi({ description: 'The organisation-wide role, used on projects that set none of their own.' }),
    project_override: z.boolean().openapi({ description: 'Whether this project sets the role itself.' }),
    abilities: z.array(Ability),
    joined_at: z.string(),
  })
  .openapi('Member');

const Seats = z
  .object({
    plan: z.string(),
    limit: z.number().int().nullable().openapi({ description: 'Seats of the plan; null: no limit.' }),
    used: z.number().int().openapi({ description: 'Members plus pending invitations.' }),
    members: z.number().int(),
    pending_invitations: z.number().int(),
  })
  .openapi('Seats');

const Invitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role: Role,
    url: z.string().nullable().openapi({
      description: 'The single-use link. Always in the answer that creates the invitation; in lists while pending, when the server keeps links encrypted (PARLANCE_SECRET_KEY).',
    }),
    expires_at: z.string(),
    accepted_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    created_at: z.string(),
    mailed: z.boolean().openapi({ description: 'Whether it was handed to the SMTP server (SMTP_URL).' }),
  })
  .openapi('Invitation');

const UserParam = z.object({ user_id: z.string().min(1) });
const refusals = {
  402: problem('No seat left (`seats_exhausted`)'),
  409: problem('Already a member, already invited, or the last owner'),
} as const;

export function membersRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: "The organisation's members, with their role on this project",
      description: 'Ability: `manage`. Also the seats: members plus pending invitations against the plan (free and Starter: 3).',
      middleware: [requireAbility('manage')] as const,
      responses: { 200: json('Members, oldest first', z.object({ items: z.array(Member), seats: Seats })), ...problemResponses },
    }),
    async (c) => c.json(await deps.members.list(c.get('auth')), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/{user_id}',
      summary: "Set a member's role on this project",
      description:
        "Ability: `manage`. The role applies to this project only (other projects keep the organisation role). Only an owner grants or changes the owner role, nobody changes their own role, and the last owner stays one. It takes effect on the member's next request.",
      middleware: [requireAbility('manage')] as const,
      request: { params: UserParam, body: { required: true, content: { 'application/json': { schema: z.object({ role: Role }).strict().openapi('MemberPatch') } } } },
      responses: { 200: json('The member', Member), ...refusals, ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.members.setRole(c.get('auth'), c.req.valid('param').user_id, c.req.valid('json').role), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/{user_id}',
      summary: 'Remove a member from the organisation',
      description: 'Ability: `manage`. Frees their seat; their console credentials stop working on the next request. Only an owner removes an owner, and never the last one.',
      middleware: [requireAbility('manage')] as const,
      request: { params: UserParam },
      responses: { 200: json('The removed member', Member), ...refusals, ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.members.remove(c.get('auth'), c.req.valid('param').user_id), 200),
  );

  return app;
}

export function invitationsRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      summary: 'Invite someone to the organisation',
      description:
        'Ability: `manage`. Returns a single-use link that expires (INVITATION_TTL, 7 days by default), and mails it when SMTP_URL is set. A pending invitation holds a seat: when members plus pending invitations fill the plan\'s seats, 402 `seats_exhausted`.',
      middleware: [requireAbility('manage')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ email: z.email().max(254), role: Role }).strict().openapi('InvitationCreate') } } } },
      responses: { 201: json('Invited', Invitation), ...refusals, ...problemResponses },
    }),
    async (c) => {
      const baseUrl = deps.publicUrl ?? new URL(c.req.url).origin;
      return c.json(await deps.members.invite(c.get('auth'), c.req.valid('json'), baseUrl), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      summary: "The organisation's invitations",
      description: 'Ability: `manage`. Pending, accepted, withdrawn and expired ones, newest first.',
      middleware: [requireAbility('manage')] as const,
      responses: { 200: json('Invitations', itemsOf(Invitation)), ...problemResponses },
    }),
    async (c) => c.json({ items: await deps.members.invitations(c.get('auth')) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      summary: 'Withdraw an invitation',
      description: 'Ability: `manage`. The link stops working and the seat is free again.',
      middleware: [requireAbility('manage')] as const,
      request: { params: ById },
      responses: { 200: json('Withdrawn', Invitation), ...refusals, ...notFoundResponse, ...problemResponses },
    }),
    async (c) => c.json(await deps.members.revokeInvitation(c.get('auth'), c.req.valid('param').id), 200),
  );

  return app;
}
