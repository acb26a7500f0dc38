/**
 * /v1/auth: people sign up, sign in and out, manage their sessions and password, and get a short-lived credential for
 * one project. These routes authenticate with the session cookie (HttpOnly, SameSite=Strict); every other /v1 route
 * takes a bearer credential, so the cookie alone can never act on a project.
 */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { ApiError } from '../../errors.js';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { rateLimitHeaders, remoteAddress } from '../../http/middleware/rate-limit.js';
import { ROLES } from '../../services/people/roles-fns.js';
import { localeParam } from './locale-params.js';
import { Ability, problem } from './schemas.js';
import { itemsOf, json } from './route-shapes.js';

export const SESSION_COOKIE = 'parlance_session';
/** The cookie's name over TLS: `__Host-` makes browsers insist on Secure, Path=/ and no Domain. */
export const SECURE_SESSION_COOKIE = '__Host-parlance_session';

type AccountEnv = AppEnv & { Variables: { account: { session: { id: string; expires_at: Date }; user: { id: string; email: string; name: string | null; created_at: Date } } } };

const Role = z.enum(ROLES).openapi('Role');
const Email = z.email({ error: "expected an email address such as 'ada@example.com'" }).max(254);
const Password = z.string().min(10, 'must be at least 10 characters').max(256, 'must be at most 256 characters');

const Seats = z.object({ plan: z.string(), limit: z.number().int().nullable().openapi({ description: 'Seats of the plan; null: no limit.' }), used: z.number().int(), members: z.number().int(), pending_invitations: z.number().int() }).openapi('Seats');
const AccountProject = z.object({ id: z.string(), name: z.string(), organisation_id: z.string(), source_locale: z.string(), role: Role, abilities: z.array(Ability) }).openapi('AccountProject');
const AccountSession = z
  .object({
    user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable(), created_at: z.string() }),
    session: z.object({ id: z.string(), created_at: z.string(), expires_at: z.string() }),
    organisations: z.array(z.object({ id: z.string(), name: z.string(), plan: z.string(), role: Role, seats: Seats, can_mint_tokens: z.boolean() })),
    projects: z.array(AccountProject),
  })
  .openapi('AccountSession');
const BrowserSession = z
  .object({ id: z.string(), current: z.boolean(), user_agent: z.string().nullable(), ip: z.string().nullable(), created_at: z.string(), last_seen_at: z.string(), expires_at: z.string() })
  .openapi('BrowserSession');
const Credential = z
  .object({
    token: z.string().openapi({ description: 'A bearer credential (`prl_…`) for this project only; keep it in memory.' }),
    expires_at: z.string(),
    project_id: z.string(),
    role: Role,
    abilities: z.array(Ability).openapi({ description: 'Those of the role now; a role change applies to the credential on its next request.' }),
  })
  .openapi('ProjectCredential');
const InvitationPreview = z
  .object({ organisation: z.object({ id: z.string(), name: z.string() }), project: z.object({ id: z.string(), name: z.string() }).nullable(), email: z.string(), role: Role, expires_at: z.string() })
  .openapi('InvitationPreview');

const accountProblems = {
  401: problem('Not signed in, or the session expired or was signed out'),
  403: problem('Refused: a cross-site request (`csrf_refused`), or not allowed'),
  422: problem('Validation failed'),
  429: problem('Too many requests (see Retry-After)'),
} as const;
const cookieSecurity = [{ session: [] }];
const TokenParam = z.object({ token: z.string().min(10).max(200) });

export function authRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AccountEnv>();
  const { account } = deps;

  app.use('*', sameOrigin({ publicUrl: deps.publicUrl }));
  app.use('*', limitAccountRequests(deps));

  const requireSession: MiddlewareHandler<AccountEnv> = async function requireSession(c, next) {
    c.set('account', await account.sessionFromSecret(readSessionCookie(c)));
    await next();
  };

  async function describeSession(c: Context<AccountEnv>, session: { id: string; created_at: Date; expires_at: Date }, user: { id: string; email: string; name: string | null; created_at: Date }) {
    const described = await account.describe(user.id);
    return {
      user: { id: user.id, email: user.email, name: user.name, created_at: user.created_at.toISOString() },
      session: { id: session.id, created_at: session.created_at.toISOString(), expires_at: session.expires_at.toISOString() },
      ...described,
    };
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/sign-up',
      summary: 'Create an account and sign in',
      description:
        'Sets the session cookie. The first person on a fresh install becomes owner of the demo organisation; with `invitation` (the token from an invitation link, for the same address) the person joins that organisation with the invited role; anyone else gets a new organisation on the free plan. `PARLANCE_SIGNUP=invite` allows only the first two kinds. Passwords are stored as argon2id hashes.',
      security: [],
      request: {
        body: {
          required: true,
          content: {
            'application/json': {
              schema: z.object({ email: Email, password: Password, name: z.string().max(100).optional(), invitation: z.string().max(200).optional() }).strict().openapi('SignUpRequest'),
            },
          },
        },
      },
      responses: { 201: json('Signed up and signed in', AccountSession), 409: problem('The address already has an account'), ...accountProblems },
    }),
    async (c) => {
      const { session, secret, user } = await account.signUp(c.req.valid('json'), requestMeta(c));
      writeSessionCookie(c, secret, session.expires_at, deps.publicUrl);
      return c.json(await describeSession(c, session, user), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/sign-in',
      summary: 'Sign in with email and password',
      description:
        'Sets the session cookie (HttpOnly, SameSite=Strict, Secure over TLS). Failed attempts are limited per account and per client address (by default 5 and 20 in 15 minutes): then 429 `sign_in_limited` with Retry-After, whatever the password.',
      security: [],
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ email: Email, password: z.string().min(1).max(256) }).strict().openapi('SignInRequest') } } } },
      responses: { 200: json('Signed in', AccountSession), ...accountProblems },
    }),
    async (c) => {
      const { session, secret, user } = await account.signIn(c.req.valid('json'), requestMeta(c));
      writeSessionCookie(c, secret, session.expires_at, deps.publicUrl);
      return c.json(await describeSession(c, session, user), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/sign-out',
      summary: 'Sign out this session',
      description: 'Revokes the session and every project credential made from it, and clears the cookie.',
      security: cookieSecurity,
      middleware: [requireSession] as const,
      responses: { 204: { description: 'Signed out' }, ...accountProblems },
    }),
    async (c) => {
      const { session, user } = c.get('account');
      await account.revokeSession(user.id, session.id);
      clearSessionCookie(c, deps.publicUrl);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/session',
      summary: 'The signed-in person',
      description: 'Their organisations (role, plan, seats) and the projects they can open, with their role and abilities on each.',
      security: cookieSecurity,
      middleware: [requireSession] as const,
      responses: { 200: json('The session', AccountSession), ...accountProblems },
    }),
    async (c) => {
      const { session, user } = c.get('account');
      const full = (await account.listSessions(user.id)).find((s) => s.id === session.id);
      return c.json(await describeSession(c, { ...session, created_at: full?.created_at ?? new Date() }, user), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/sessions',
      summary: "The signed-in person's live sessions",
      security: cookieSecurity,
      middleware: [requireSession] as const,
      responses: { 200: json('Live sessions, newest first', itemsOf(BrowserSession)), ...accountProblems },
    }),
    async (c) => {
      const { session, user } = c.get('account');
      const sessions = await account.listSessions(user.id);
      return c.json(
        {
          items: sessions.map((s) => ({
            id: s.id,
            current: s.id === session.id,
            user_agent: s.user_agent,
            ip: s.ip,
            created_at: s.created_at.toISOString(),
            last_seen_at: s.last_seen_at.toISOString(),
            expires_at: s.expires_at.toISOString(),
          })),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/sessions/{id}',
      summary: 'Revoke one of your sessions',
      description: 'The session and its project credentials stop working at once (401 on their next request).',
      security: cookieSecurity,
      middleware: [requireSession] as const,
      request: { params: z.object({ id: z.string().min(1) }) },
      responses: { 204: { description: 'Revoked' }, 404: problem('No such session of yours'), ...accountProblems },
    }),
    async (c) => {
      const { user, session } = c.get('account');
      const { id } = c.req.valid('param');
      await account.revokeSession(user.id, id);
      if (id === session.id) clearSessionCookie(c, deps.publicUrl);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/password',
      summary: 'Change your password',
      description: 'Needs the current password (403 `password_wrong` otherwise). Every other session of the person is signed out.',
      security: cookieSecurity,
      middleware: [requireSession] as const,
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ current_password: z.string().min(1).max(256), new_password: Password }).strict().openapi('PasswordChange') } } } },
      responses: { 204: { description: 'Changed' }, ...accountProblems },
    }),
    async (c) => {
      const { user, session } = c.get('account');
      await account.changePassword(user.id, session.id, c.req.valid('json'));
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/credentials',
      summary: 'A short-lived credential for one project',
      description:
        "A bearer credential bound to one project and to this browser session, with the abilities of the person's role there (owner and admin: all five; developer: push, pull, read, write; translator: read, write). It expires after CREDENTIAL_TTL (15 minutes by default) or with the session. Every /v1 route checks it like a token, and a role change or removal applies on its next request. Allowed on every plan.",
      security: cookieSecurity,
      middleware: [requireSession] as const,
      request: { body: { required: true, content: { 'application/json': { schema: z.object({ project_id: z.string().min(1) }).strict().openapi('CredentialRequest') } } } },
      responses: { 201: json('The credential', Credential), 404: problem('No such project among yours'), ...accountProblems },
    }),
    async (c) => {
      const { user, session } = c.get('account');
      return c.json(await account.mintCredential(user, session, c.req.valid('json').project_id), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/projects',
      summary: 'Create a project',
      description: "Needs the owner or admin role in the organisation. The plan's limits apply (the free plan: one project, 15 locale rows).",
      security: cookieSecurity,
      middleware: [requireSession] as const,
      request: {
        body: {
          required: true,
          content: {
            'application/json': {
              schema: z
                .object({
                  organisation_id: z.string().min(1),
                  name: z.string().trim().min(1).max(100),
                  source_locale: z.string().min(1).max(100),
                  target_locales: z.array(z.string().min(1).max(100)).max(500).default([]),
                })
                .strict()
                .openapi('ProjectCreate'),
            },
          },
        },
      },
      responses: { 201: json('Created', AccountProject), 404: problem('No such organisation among yours'), ...accountProblems },
    }),
    async (c) => {
      const { user } = c.get('account');
      const body = c.req.valid('json');
      return c.json(await account.createProject(user.id, { ...body, source_locale: localeParam(body.source_locale), target_locales: body.target_locales.map(localeParam) }), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/invitations/{token}',
      summary: 'What an invitation link offers',
      description: 'No sign-in needed: the organisation, project, address and role, and when the link expires. 404 `invitation_invalid`; 410 `invitation_used`, `invitation_revoked` or `invitation_expired`.',
      security: [],
      request: { params: TokenParam },
      responses: { 200: json('The invitation', InvitationPreview), 404: problem('Unknown link'), 410: problem('Used, withdrawn or expired'), ...accountProblems },
    }),
    async (c) => c.json(await account.previewInvitation(c.req.valid('param').token), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/invitations/{token}/accept',
      summary: 'Accept an invitation',
      description: 'The signed-in person (whose address must be the invited one) joins the organisation with the invited role. Each link works once.',
      security: cookieSecurity,
      middleware: [requireSession] as const,
      request: { params: TokenParam },
      responses: {
        200: json('Joined', z.object({ organisation_id: z.string(), project_id: z.string().nullable(), role: Role })),
        404: problem('Unknown link'),
        409: problem('Already a member'),
        410: problem('Used, withdrawn or expired'),
        ...accountProblems,
      },
    }),
    async (c) => c.json(await account.acceptInvitation(c.get('account').user, c.req.valid('param').token), 200),
  );

  return app;
}

function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, SECURE_SESSION_COOKIE) ?? getCookie(c, SESSION_COOKIE);
}

function servedOverTls(c: Context, publicUrl: string | undefined): boolean {
  return new URL(c.req.url).protocol === 'https:' || (publicUrl?.startsWith('https:') ?? false);
}

function writeSessionCookie(c: Context, secret: string, expires: Date, publicUrl: string | undefined) {
  const secure = servedOverTls(c, publicUrl);
  setCookie(c, secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, secret, { httpOnly: true, secure, sameSite: 'Strict', path: '/', expires });
}

function clearSessionCookie(c: Context, publicUrl: string | undefined) {
  const secure = servedOverTls(c, publicUrl);
  deleteCookie(c, secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, { path: '/', secure, httpOnly: true, sameSite: 'Strict' });
}

function requestMeta(c: Context) {
  return { ip: remoteAddress(c), userAgent: c.req.header('user-agent') };
}

/**
 * CSRF: a state-changing request must come from this service's own pages. Browsers send Origin on every cross-origin
 * request and on same-origin POSTs; without Origin, `Sec-Fetch-Site: same-origin` is accepted; otherwise it is refused.
 */
export function sameOrigin(options: { publicUrl: string | undefined }): MiddlewareHandler {
  const configured = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  return async function checkSameOrigin(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
    const origin = c.req.header('origin');
    const own = new URL(c.req.url).origin;
    const allowed = origin !== undefined ? origin === own || origin === configured : c.req.header('sec-fetch-site') === 'same-origin';
    if (!allowed) {
      throw new ApiError(403, 'csrf_refused', `Cross-site request refused: ${origin ? `Origin '${origin}' is not this service (${configured ?? own})` : 'no Origin header'}. Sign-in and account changes are only accepted from Parlance's own pages.`);
    }
    await next();
  };
}

/** The per-minute limit, counted per signed-in person, or per address before sign-in. */
function limitAccountRequests(deps: AppDeps): MiddlewareHandler {
  return async function limitAccount(c, next) {
    let key = `address:${remoteAddress(c)}`;
    const secret = readSessionCookie(c);
    if (secret) {
      const found = await deps.account.sessionFromSecret(secret).catch(() => undefined);
      if (found) key = `user:${found.user.id}`;
    }
    const result = await deps.limiter.hit(key);
    c.set('rateLimit', result);
    if (!result.allowed) {
      throw new ApiError(429, 'rate_limited', `Rate limit of ${result.limit} requests per minute exceeded; retry in ${result.retryAfter} s.`, { retry_after: result.retryAfter }, { 'Retry-After': String(result.retryAfter) });
    }
    await next();
    for (const [name, value] of Object.entries(rateLimitHeaders(result))) c.res.headers.set(name, value);
  };
}
