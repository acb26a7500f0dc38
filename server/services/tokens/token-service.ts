/** Minting, listing, revoking and checking tokens; every credential belongs to exactly one project. */
import type { Db } from '../../db/database.js';
import type { TokenRecord } from '../../db/schema.js';
import { ApiError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { limitsOf, remedy } from '../plans.js';
import { ROLE_ABILITIES, effectiveRole, type Role } from '../people/roles-fns.js';
import {
  DEPLOY_ABILITIES,
  checkTokenShape,
  displayPrefix,
  generateTokenSecret,
  hashTokenSecret,
  type Ability,
} from './token-fns.js';

export interface MintInput {
  projectId: string;
  name: string;
  abilities?: readonly Ability[];
  /** Absolute expiry; undefined means the token does not expire. */
  expiresAt?: Date;
  /** Console sign-in credentials are short-lived session tokens, allowed on every plan. */
  kind?: 'api' | 'session';
  /** A console credential's person and browser session: its abilities follow their current role, and it dies with the session. */
  userId?: string;
  browserSessionId?: string;
}

export interface AuthContext {
  token: TokenRecord;
  abilities: ReadonlySet<Ability>;
  project: { id: string; name: string; source_locale: string; organisation_id: string };
  organisation: { id: string; name: string; plan: string };
  /** The person behind a console credential, and their role on the project now. */
  user?: { id: string; email: string; role: Role };
}

/** How often last_used_at is written: once a minute per token is enough to answer "is this token in use?". */
const LAST_USED_RESOLUTION_MS = 60_000;

export function publicToken(token: TokenRecord) {
  return {
    id: token.id,
    name: token.name,
    kind: token.kind,
    prefix: token.display_prefix,
    abilities: token.abilities as Ability[],
    created_at: token.created_at.toISOString(),
    expires_at: token.expires_at?.toISOString() ?? null,
    last_used_at: token.last_used_at?.toISOString() ?? null,
    revoked_at: token.revoked_at?.toISOString() ?? null,
  };
}

export function createTokenService(deps: { db: Db }) {
  const { db } = deps;

  async function mint(input: MintInput) {
    const kind = input.kind ?? 'api';
    const project = await db
      .selectFrom('projects')
      .innerJoin('organisations', 'organisations.id', 'projects.organisation_id')
      .select(['projects.id', 'organisations.id as organisation_id', 'organisations.plan', 'organisations.name as organisation_name'])
      .where('projects.id', '=', input.projectId)
      .executeTakeFirst();
    if (!project) throw notFound('project_not_found', `No project '${input.projectId}'.`);
    const org = { id: project.organisation_id, name: project.organisation_name, plan: project.plan };
    if (kind === 'api' && !limitsOf(org).canMintTokens) {
      const advice = remedy(org, (other) => other.canMintTokens, 'Upgrade to Starter or above.');
      throw new ApiError(403, 'plan_forbids_tokens', `Organisation '${org.name}' is on the ${org.plan} plan, which cannot mint API tokens. ${advice}`, {
        plan: project.plan,
      });
    }
    if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
      throw new ApiError(422, 'validation_failed', `expires_at '${input.expiresAt.toISOString()}' is in the past.`);
    }
    const secret = generateTokenSecret();
    const abilities = [...new Set(input.abilities ?? DEPLOY_ABILITIES)];
    const token = await db
      .insertInto('tokens')
      .values({
        id: newId('tok'),
        project_id: project.id,
        kind,
        name: input.name,
        display_prefix: displayPrefix(secret),
        secret_hash: hashTokenSecret(secret),
        abilities,
        expires_at: input.expiresAt ?? null,
        user_id: input.userId ?? null,
        browser_session_id: input.browserSessionId ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { token, secret };
  }

  /** The project's tokens; console credentials only while they live (a person mints a new one every 15 minutes). */
  async function list(projectId: string, now = new Date()) {
    return db
      .selectFrom('tokens')
      .selectAll()
      .where('project_id', '=', projectId)
      .where((eb) => eb.or([eb('user_id', 'is', null), eb.and([eb('revoked_at', 'is', null), eb('expires_at', '>', now)])]))
      .orderBy('id', 'desc')
      .execute();
  }

  /** Revokes a token of the project; another project's token is reported as not found. */
  async function revoke(projectId: string | undefined, tokenId: string) {
    let query = db.updateTable('tokens').set({ revoked_at: new Date() }).where('id', '=', tokenId).where('revoked_at', 'is', null);
    if (projectId) query = query.where('project_id', '=', projectId);
    const token = await query.returningAll().executeTakeFirst();
    if (token) return token;
    let existing = db.selectFrom('tokens').selectAll().where('id', '=', tokenId);
    if (projectId) existing = existing.where('project_id', '=', projectId);
    const found = await existing.executeTakeFirst();
    if (!found) throw notFound('token_not_found', `No token '${tokenId}' in this project.`);
    return found;
  }

  /** Resolves an Authorization header to the token's project and abilities, or throws 401 with the reason. */
  async function authenticate(header: string | undefined, now = new Date()): Promise<AuthContext> {
    if (!header) throw unauthorized('token_missing', 'Missing Authorization header. Send `Authorization: Bearer <token>`.');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('token_malformed', 'Malformed Authorization header. Expected `Authorization: Bearer prl_...`.');
    const secret = match[1]!;
    if (checkTokenShape(secret) !== 'ok') {
      throw unauthorized('token_malformed', `Malformed token '${secret.slice(0, 8)}…'. Expected 'prl_' followed by 38 letters and digits (check for a truncated copy).`);
    }
    const row = await db
      .selectFrom('tokens')
      .innerJoin('projects', 'projects.id', 'tokens.project_id')
      .innerJoin('organisations', 'organisations.id', 'projects.organisation_id')
      .selectAll('tokens')
      .select([
        'projects.name as project_name',
        'projects.source_locale as project_source_locale',
        'projects.organisation_id as project_organisation_id',
        'organisations.name as organisation_name',
        'organisations.plan as organisation_plan',
      ])
      .where('tokens.secret_hash', '=', hashTokenSecret(secret))
      .executeTakeFirst();
    if (!row) throw unauthorized('token_invalid', 'Unknown token. It may have been deleted, or belong to another Parlance server.');
    if (row.revoked_at) throw unauthorized('token_revoked', `Token ${row.display_prefix}… was revoked at ${row.revoked_at.toISOString()}.`);
    if (row.expires_at && row.expires_at <= now) throw unauthorized('token_expired', `Token ${row.display_prefix}… expired at ${row.expires_at.toISOString()}.`);
    let abilities = new Set(row.abilities as Ability[]);
    let user: AuthContext['user'];
    if (row.user_id) {
      // A console credential: the browser session must still be live, and the abilities are those of the role now, so
      // signing out, removing a member or changing a role takes effect on the very next request.
      const person = await db
        .selectFrom('users')
        .innerJoin('organisation_members as m', (join) => join.onRef('m.user_id', '=', 'users.id').on('m.organisation_id', '=', row.project_organisation_id))
        .leftJoin('project_roles as pr', (join) => join.onRef('pr.user_id', '=', 'users.id').on('pr.project_id', '=', row.project_id))
        .leftJoin('browser_sessions as s', (join) => join.on('s.id', '=', row.browser_session_id ?? ''))
        .select(['users.id', 'users.email', 'm.role as organisation_role', 'pr.role as project_role', 's.revoked_at as session_revoked_at', 's.expires_at as session_expires_at'])
        .where('users.id', '=', row.user_id)
        .executeTakeFirst();
      if (!person) throw unauthorized('token_revoked', `Credential ${row.display_prefix}… belongs to someone who is no longer a member of this organisation.`);
      if (row.browser_session_id && (person.session_revoked_at || !person.session_expires_at || person.session_expires_at <= now)) {
        throw unauthorized('token_revoked', `Credential ${row.display_prefix}… belongs to a browser session that was signed out or expired; sign in again.`);
      }
      const role = effectiveRole(person.organisation_role as Role, person.project_role as Role | null);
      abilities = new Set(ROLE_ABILITIES[role]);
      user = { id: person.id, email: person.email, role };
    }
    const token: TokenRecord = {
      id: row.id,
      project_id: row.project_id,
      kind: row.kind,
      name: row.name,
      display_prefix: row.display_prefix,
      secret_hash: row.secret_hash,
      abilities: row.abilities,
      created_at: row.created_at,
      expires_at: row.expires_at,
      last_used_at: row.last_used_at,
      revoked_at: row.revoked_at,
      user_id: row.user_id,
      browser_session_id: row.browser_session_id,
    };
    return {
      token,
      abilities,
      ...(user ? { user } : {}),
      project: { id: row.project_id, name: row.project_name, source_locale: row.project_source_locale, organisation_id: row.project_organisation_id },
      organisation: { id: row.project_organisation_id, name: row.organisation_name, plan: row.organisation_plan },
    };
  }

  /** Records use, at most once a minute per token; called after the rate limit let the request through. */
  async function touch(token: TokenRecord, now = new Date()) {
    if (token.last_used_at && now.getTime() - token.last_used_at.getTime() < LAST_USED_RESOLUTION_MS) return;
    await db.updateTable('tokens').set({ last_used_at: now }).where('id', '=', token.id).execute();
  }

  return { mint, list, revoke, authenticate, touch };
}

function unauthorized(code: string, message: string) {
  return new ApiError(401, code, message, {}, { 'WWW-Authenticate': `Bearer realm="parlance", error="invalid_token"` });
}

export type TokenService = ReturnType<typeof createTokenService>;
