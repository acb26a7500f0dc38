/**
 * People's accounts: sign-up, sign-in with rate-limited guessing, browser sessions, password change, and the
 * short-lived project credentials through which a signed-in person uses /v1 with the abilities of their role.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { ApiError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { OrganisationService } from '../organisations.js';
import { findPlan, limitOrNull, planSettings } from '../plans.js';
import type { TokenService } from '../tokens/token-service.js';
import { ROLE_ABILITIES, effectiveRole, normaliseEmail, type Role } from './roles-fns.js';

export interface AccountSettings {
  sessionTtlMs: number;
  credentialTtlMs: number;
  /** Failed sign-ins allowed per account, and per client address, within `signInWindowMs`. */
  signInMaxFailuresPerAccount: number;
  signInMaxFailuresPerAddress: number;
  signInWindowMs: number;
  /** `invite`: only the first user and people with an invitation can sign up. */
  signup: 'open' | 'invite';
}

export interface RequestMeta {
  ip: string;
  userAgent: string | undefined;
}

/** A hash to verify against when the address is unknown, so a wrong address takes as long as a wrong password. */
let dummyHash: Promise<string> | undefined;

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function createAccountService(deps: { db: Db; tokens: TokenService; organisations: OrganisationService; settings: AccountSettings }) {
  const { db, tokens, organisations, settings } = deps;

  async function startSession(userId: string, meta: RequestMeta, now = new Date()) {
    const secret = randomBytes(32).toString('base64url');
    const session = await db
      .insertInto('browser_sessions')
      .values({
        id: newId('ses'),
        user_id: userId,
        secret_hash: hashSecret(secret),
        user_agent: meta.userAgent?.slice(0, 300) ?? null,
        ip: meta.ip,
        created_at: now,
        last_seen_at: now,
        expires_at: new Date(now.getTime() + settings.sessionTtlMs),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { session, secret };
  }

  async function signUp(input: { email: string; password: string; name?: string | undefined; invitation?: string | undefined }, meta: RequestMeta) {
    const email = normaliseEmail(input.email);
    const passwordHash = await argonHash(input.password);
    const user = await db.transaction().execute(async (trx) => {
      // Serialises sign-ups, so exactly one person can be the first user of a fresh install.
      await sql`select pg_advisory_xact_lock(42420012)`.execute(trx);
      const taken = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      if (taken) throw new ApiError(409, 'email_taken', `An account with the address '${email}' already exists; sign in instead.`);
      const first = !(await trx.selectFrom('users').select('id').limit(1).executeTakeFirst());
      if (!first && !input.invitation && settings.signup === 'invite') {
        throw new ApiError(403, 'signup_invite_only', 'This Parlance server only accepts sign-ups through an invitation (PARLANCE_SIGNUP=invite). Ask an owner or admin to invite you.');
      }
      const created = await trx
        .insertInto('users')
        .values({ id: newId('usr'), email, name: input.name?.trim() || null, password_hash: passwordHash })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (input.invitation) {
        await acceptWithin(trx, created.id, email, input.invitation);
      } else if (first) {
        // The first person of a fresh install owns the demo organisation that `npm start` created.
        const demo = await trx.selectFrom('organisations').select('id').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
        const organisationId = demo?.id ?? (await organisations.createOrganisation({ name: `${displayName(created)}'s organisation`, plan: planSettings().defaultPlan }, new Date(), trx)).id;
        await trx.insertInto('organisation_members').values({ organisation_id: organisationId, user_id: created.id, role: 'owner' }).execute();
      } else {
        const org = await organisations.createOrganisation({ name: `${displayName(created)}'s organisation`, plan: planSettings().defaultPlan }, new Date(), trx);
        await trx.insertInto('organisation_members').values({ organisation_id: org.id, user_id: created.id, role: 'owner' }).execute();
      }
      return created;
    });
    return { user, ...(await startSession(user.id, meta)) };
  }

  /** Refuses with 429 while the account or the address has too many recent failures; otherwise checks the password. */
  async function signIn(input: { email: string; password: string }, meta: RequestMeta, now = new Date()) {
    const email = normaliseEmail(input.email);
    const since = new Date(now.getTime() - settings.signInWindowMs);
    const lastSuccess = await db.selectFrom('sign_in_attempts').select('at').where('email', '=', email).where('succeeded', '=', true).orderBy('at', 'desc').limit(1).executeTakeFirst();
    const accountSince = lastSuccess && lastSuccess.at > since ? lastSuccess.at : since;
    const [byAccount, byAddress] = await Promise.all([
      failures(db, 'email', email, accountSince),
      failures(db, 'ip', meta.ip, since),
    ]);
    const limited =
      byAccount.count >= settings.signInMaxFailuresPerAccount ? { what: 'this account', oldest: byAccount.oldest } : byAddress.count >= settings.signInMaxFailuresPerAddress ? { what: 'your address', oldest: byAddress.oldest } : undefined;
    if (limited) {
      const retryAfter = Math.max(1, Math.ceil(((limited.oldest?.getTime() ?? now.getTime()) + settings.signInWindowMs - now.getTime()) / 1000));
      throw new ApiError(429, 'sign_in_limited', `Too many failed sign-ins for ${limited.what}; try again in ${formatWait(retryAfter)}.`, { retry_after: retryAfter }, { 'Retry-After': String(retryAfter) });
    }
    const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    dummyHash ??= argonHash(randomBytes(16).toString('hex'));
    const ok = await argonVerify(user?.password_hash ?? (await dummyHash), input.password).catch(() => false);
    await db.insertInto('sign_in_attempts').values({ email, ip: meta.ip, succeeded: ok && !!user }).execute();
    if (!ok || !user) throw new ApiError(401, 'credentials_invalid', 'The email address or the password is wrong.');
    // What no limit or list will read again: this account's attempts before the window, its sessions long expired.
    await db.deleteFrom('sign_in_attempts').where('email', '=', email).where('at', '<', since).execute();
    await db.deleteFrom('browser_sessions').where('user_id', '=', user.id).where('expires_at', '<', new Date(now.getTime() - 86_400_000)).execute();
    return { user, ...(await startSession(user.id, meta, now)) };
  }

  /** The live session behind a cookie, or 401 saying why there is none. */
  async function sessionFromSecret(secret: string | undefined, now = new Date()) {
    if (!secret) throw new ApiError(401, 'session_missing', 'Not signed in. Sign in at / (POST /v1/auth/sign-in).');
    const row = await db
      .selectFrom('browser_sessions')
      .innerJoin('users', 'users.id', 'browser_sessions.user_id')
      .selectAll('browser_sessions')
      .select(['users.email', 'users.name', 'users.created_at as user_created_at'])
      .where('browser_sessions.secret_hash', '=', hashSecret(secret))
      .executeTakeFirst();
    if (!row) throw new ApiError(401, 'session_invalid', 'This session is unknown (it may have been deleted); sign in again.');
    if (row.revoked_at) throw new ApiError(401, 'session_revoked', `This session was signed out at ${row.revoked_at.toISOString()}; sign in again.`);
    if (row.expires_at <= now) throw new ApiError(401, 'session_expired', `This session expired at ${row.expires_at.toISOString()}; sign in again.`);
    if (now.getTime() - row.last_seen_at.getTime() > 60_000) {
      await db.updateTable('browser_sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
    }
    return {
      session: { id: row.id, user_id: row.user_id, created_at: row.created_at, expires_at: row.expires_at },
      user: { id: row.user_id, email: row.email, name: row.name, created_at: row.user_created_at },
    };
  }

  async function revokeSession(userId: string, sessionId: string, now = new Date()) {
    const revoked = await db
      .updateTable('browser_sessions')
      .set({ revoked_at: now })
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!revoked) {
      const exists = await db.selectFrom('browser_sessions').select('id').where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
      if (!exists) throw notFound('session_not_found', `No session '${sessionId}' of yours.`);
    }
    // Its project credentials die with it (authentication checks the session too; this makes the token list honest).
    await db.updateTable('tokens').set({ revoked_at: now }).where('browser_session_id', '=', sessionId).where('revoked_at', 'is', null).execute();
  }

  async function listSessions(userId: string, now = new Date()) {
    return db
      .selectFrom('browser_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** Checks the current password, stores the new one, and signs out every other session. */
  async function changePassword(userId: string, keepSessionId: string, input: { current_password: string; new_password: string }, now = new Date()) {
    const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    if (!(await argonVerify(user.password_hash, input.current_password).catch(() => false))) {
      throw new ApiError(403, 'password_wrong', 'The current password is wrong; the password was not changed.');
    }
    const passwordHash = await argonHash(input.new_password);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash, password_changed_at: now }).where('id', '=', userId).execute();
      const others = await trx
        .updateTable('browser_sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('id', '!=', keepSessionId)
        .where('revoked_at', 'is', null)
        .returning('id')
        .execute();
      if (others.length > 0) {
        await trx.updateTable('tokens').set({ revoked_at: now }).where('browser_session_id', 'in', others.map((s) => s.id)).where('revoked_at', 'is', null).execute();
      }
    });
  }

  /** The projects a user can open, with their role and abilities on each. */
  async function projectsOf(userId: string) {
    const rows = await db
      .selectFrom('organisation_members as m')
      .innerJoin('projects as p', 'p.organisation_id', 'm.organisation_id')
      .leftJoin('project_roles as pr', (join) => join.onRef('pr.project_id', '=', 'p.id').onRef('pr.user_id', '=', 'm.user_id'))
      .select(['p.id', 'p.name', 'p.organisation_id', 'p.source_locale', 'm.role as organisation_role', 'pr.role as project_role'])
      .where('m.user_id', '=', userId)
      .orderBy('p.id')
      .execute();
    return rows.map((r) => {
      const role = effectiveRole(r.organisation_role, r.project_role);
      return { id: r.id, name: r.name, organisation_id: r.organisation_id, source_locale: r.source_locale, role, abilities: [...ROLE_ABILITIES[role]] };
    });
  }

  async function describe(userId: string) {
    const orgs = await db
      .selectFrom('organisation_members as m')
      .innerJoin('organisations as o', 'o.id', 'm.organisation_id')
      .select(['o.id', 'o.name', 'o.plan', 'm.role'])
      .where('m.user_id', '=', userId)
      .orderBy('o.created_at')
      .execute();
    const organisationsOut = [];
    for (const o of orgs) {
      organisationsOut.push({ id: o.id, name: o.name, plan: o.plan, role: o.role as Role, seats: await seatsOf(db, o.id), can_mint_tokens: findPlan(o.plan)?.canMintTokens ?? false });
    }
    return { organisations: organisationsOut, projects: await projectsOf(userId) };
  }

  /** A short-lived credential for one project, bound to the browser session; 404 for a project the user cannot open. */
  async function mintCredential(user: { id: string; email: string }, session: { id: string; expires_at: Date }, projectId: string, now = new Date()) {
    const project = (await projectsOf(user.id)).find((p) => p.id === projectId);
    if (!project) throw notFound('project_not_found', `No project '${projectId}' that you are a member of.`);
    // Expired console credentials are of no use to anyone: drop this person's old ones as new ones are made.
    await db.deleteFrom('tokens').where('user_id', '=', user.id).where('kind', '=', 'session').where('expires_at', '<', new Date(now.getTime() - 86_400_000)).execute();
    const expiresAt = new Date(Math.min(now.getTime() + settings.credentialTtlMs, session.expires_at.getTime()));
    const { token, secret } = await tokens.mint({
      projectId,
      name: `console: ${user.email}`,
      kind: 'session',
      abilities: ROLE_ABILITIES[project.role],
      expiresAt,
      userId: user.id,
      browserSessionId: session.id,
    });
    return { token: secret, expires_at: token.expires_at!.toISOString(), project_id: projectId, role: project.role, abilities: [...ROLE_ABILITIES[project.role]] };
  }

  /** A new project in an organisation where the user is owner or admin; the plan's project and locale limits apply. */
  async function createProject(userId: string, input: { organisation_id: string; name: string; source_locale: string; target_locales: string[] }) {
    const member = await db.selectFrom('organisation_members').select('role').where('organisation_id', '=', input.organisation_id).where('user_id', '=', userId).executeTakeFirst();
    if (!member) throw notFound('organisation_not_found', `No organisation '${input.organisation_id}' that you are a member of.`);
    if (member.role !== 'owner' && member.role !== 'admin') {
      throw new ApiError(403, 'role_forbids', `Creating a project needs the owner or admin role in the organisation; yours is ${member.role}.`);
    }
    const project = await organisations.createProject({ organisationId: input.organisation_id, name: input.name, sourceLocale: input.source_locale, targetLocales: input.target_locales });
    const role = member.role as Role;
    return { id: project.id, name: project.name, organisation_id: project.organisation_id, source_locale: project.source_locale, role, abilities: [...ROLE_ABILITIES[role]] };
  }

  /** What an invitation link offers, without signing in. */
  async function previewInvitation(token: string, now = new Date()) {
    const invitation = await liveInvitation(db, token, now);
    const org = await db.selectFrom('organisations').select(['id', 'name']).where('id', '=', invitation.organisation_id).executeTakeFirstOrThrow();
    const project = invitation.project_id ? await db.selectFrom('projects').select(['id', 'name']).where('id', '=', invitation.project_id).executeTakeFirst() : undefined;
    return { organisation: org, project: project ?? null, email: invitation.email, role: invitation.role as Role, expires_at: invitation.expires_at.toISOString() };
  }

  async function acceptInvitation(user: { id: string; email: string }, token: string) {
    return db.transaction().execute((trx) => acceptWithin(trx, user.id, user.email, token));
  }

  return { signUp, signIn, sessionFromSecret, revokeSession, listSessions, changePassword, describe, mintCredential, createProject, previewInvitation, acceptInvitation };
}

/** Marks the invitation used and makes the user a member; single use, checked under a row lock. */
async function acceptWithin(trx: Db, userId: string, email: string, token: string, now = new Date()) {
  const invitation = await liveInvitation(trx, token, now, true);
  if (normaliseEmail(invitation.email) !== normaliseEmail(email)) {
    throw new ApiError(403, 'invitation_email_mismatch', `This invitation is for ${invitation.email}; you are signed in as ${email}.`);
  }
  const member = await trx.selectFrom('organisation_members').select('role').where('organisation_id', '=', invitation.organisation_id).where('user_id', '=', userId).executeTakeFirst();
  if (member) throw new ApiError(409, 'already_member', `You are already a member of this organisation (as ${member.role}).`);
  await trx.insertInto('organisation_members').values({ organisation_id: invitation.organisation_id, user_id: userId, role: invitation.role }).execute();
  await trx.updateTable('invitations').set({ accepted_at: now, accepted_by: userId }).where('id', '=', invitation.id).execute();
  return { organisation_id: invitation.organisation_id, project_id: invitation.project_id, role: invitation.role as Role };
}

async function liveInvitation(db: Db, token: string, now: Date, lock = false) {
  let query = db.selectFrom('invitations').selectAll().where('token_hash', '=', hashSecret(token));
  if (lock) query = query.forUpdate();
  const invitation = await query.executeTakeFirst();
  if (!invitation) throw notFound('invitation_invalid', 'This invitation link is not valid. Check that it was copied whole, or ask for a new one.');
  if (invitation.accepted_at) throw new ApiError(410, 'invitation_used', `This invitation was already used at ${invitation.accepted_at.toISOString()}; each link works once.`);
  if (invitation.revoked_at) throw new ApiError(410, 'invitation_revoked', 'This invitation was withdrawn. Ask for a new one.');
  if (invitation.expires_at <= now) throw new ApiError(410, 'invitation_expired', `This invitation expired at ${invitation.expires_at.toISOString()}. Ask for a new one.`);
  return invitation;
}

/**
 * Members plus pending invitations, against the plan's seats; `limit` null means no limit. A plan the configuration no
 * longer has shows 0 seats here (a read) and is refused with its reason where a seat is taken (members-service).
 */
export async function seatsOf(db: Db, organisationId: string, now = new Date()) {
  const org = await db.selectFrom('organisations').select(['id', 'name', 'plan']).where('id', '=', organisationId).executeTakeFirstOrThrow();
  const [{ members }, { pending }] = await Promise.all([
    db.selectFrom('organisation_members').select((eb) => eb.fn.countAll<string>().as('members')).where('organisation_id', '=', organisationId).executeTakeFirstOrThrow(),
    db
      .selectFrom('invitations')
      .select((eb) => eb.fn.countAll<string>().as('pending'))
      .where('organisation_id', '=', organisationId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow(),
  ]);
  const seats = findPlan(org.plan)?.seats ?? 0;
  return { plan: org.plan, limit: limitOrNull(seats), used: Number(members) + Number(pending), members: Number(members), pending_invitations: Number(pending) };
}

async function failures(db: Db, column: 'email' | 'ip', value: string, since: Date) {
  const row = await db
    .selectFrom('sign_in_attempts')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.min('at').as('oldest')])
    .where(column, '=', value)
    .where('succeeded', '=', false)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest ? new Date(row.oldest as Date | string) : undefined };
}

function displayName(user: { name: string | null; email: string }): string {
  return user.name ?? user.email.split('@')[0]!;
}

function formatWait(seconds: number): string {
  return seconds < 90 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

export type AccountService = ReturnType<typeof createAccountService>;
