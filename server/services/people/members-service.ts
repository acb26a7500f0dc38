/**
 * Members of a project's organisation, their role on the project, and invitations, which hold a seat until they are
 * used, withdrawn or expire. Everything here is reached through a project credential with the `manage` ability.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Selectable } from 'kysely';
import type { InvitationsTable } from '../../db/schema.js';
import { ApiError, notFound } from '../../errors.js';
import { openSecret, sealSecret } from '../../github-app/crypto.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { AuthContext } from '../tokens/token-service.js';
import { limitsOf, remedy } from '../plans.js';
import { hashSecret, seatsOf } from './account-service.js';
import type { Mailer } from './mailer.js';
import { ROLE_ABILITIES, effectiveRole, normaliseEmail, roleChangeProblem, type Role } from './roles-fns.js';

type Invitation = Selectable<InvitationsTable>;

export function createMembersService(deps: { db: Db; log: Logger; mailer: Mailer | undefined; secretKey: Uint8Array | undefined; invitationTtlMs: number }) {
  const { db, mailer, secretKey } = deps;

  async function members(projectId: string, organisationId: string) {
    const rows = await db
      .selectFrom('organisation_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .leftJoin('project_roles as pr', (join) => join.onRef('pr.user_id', '=', 'm.user_id').on('pr.project_id', '=', projectId))
      .select(['u.id', 'u.email', 'u.name', 'm.role as organisation_role', 'pr.role as project_role', 'm.created_at'])
      .where('m.organisation_id', '=', organisationId)
      .orderBy('m.created_at')
      .orderBy('u.id')
      .execute();
    return rows.map((r) => {
      const role = effectiveRole(r.organisation_role, r.project_role);
      return {
        user_id: r.id,
        email: r.email,
        name: r.name,
        role,
        organisation_role: r.organisation_role as Role,
        project_override: r.project_role !== null,
        abilities: [...ROLE_ABILITIES[role]],
        joined_at: r.created_at.toISOString(),
      };
    });
  }

  async function list(auth: AuthContext) {
    return { items: await members(auth.project.id, auth.organisation.id), seats: await seatsOf(db, auth.organisation.id) };
  }

  async function member(auth: AuthContext, userId: string) {
    const found = (await members(auth.project.id, auth.organisation.id)).find((m) => m.user_id === userId);
    if (!found) throw notFound('member_not_found', `No member '${userId}' in this organisation.`);
    return found;
  }

  /** An API token with `manage` acts as an admin; a person acts with their own role. */
  function actor(auth: AuthContext): { id: string; role: Role } {
    return auth.user ? { id: auth.user.id, role: auth.user.role } : { id: auth.token.id, role: 'admin' };
  }

  /** Sets the member's role on this project; takes effect on their next request. */
  async function setRole(auth: AuthContext, userId: string, role: Role) {
    const target = await member(auth, userId);
    const me = actor(auth);
    const problem = roleChangeProblem({ actorRole: me.role, actorId: me.id, targetId: userId, from: target.role, to: role });
    if (problem) throw new ApiError(403, 'role_forbids', problem);
    if (target.role === 'owner' && role !== 'owner') await assertAnotherOwner(auth, userId);
    await db
      .insertInto('project_roles')
      .values({ project_id: auth.project.id, user_id: userId, role })
      .onConflict((oc) => oc.columns(['project_id', 'user_id']).doUpdateSet({ role, updated_at: new Date() }))
      .execute();
    return member(auth, userId);
  }

  /** Removes the person from the organisation, which frees their seat; their console credentials stop working. */
  async function remove(auth: AuthContext, userId: string) {
    const target = await member(auth, userId);
    const me = actor(auth);
    if (target.organisation_role === 'owner' && me.role !== 'owner') throw new ApiError(403, 'role_forbids', "Only an owner can remove an owner.");
    if (target.organisation_role === 'owner') await assertAnotherOwner(auth, userId);
    await db.transaction().execute(async (trx) => {
      const projects = trx.selectFrom('projects').select('id').where('organisation_id', '=', auth.organisation.id);
      await trx.deleteFrom('project_roles').where('user_id', '=', userId).where('project_id', 'in', projects).execute();
      await trx.deleteFrom('organisation_members').where('organisation_id', '=', auth.organisation.id).where('user_id', '=', userId).execute();
      await trx.updateTable('tokens').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('project_id', 'in', projects).where('revoked_at', 'is', null).execute();
    });
    return target;
  }

  /** The last owner of an organisation stays one: someone must be able to manage it. */
  async function assertAnotherOwner(auth: AuthContext, userId: string) {
    const owners = await db.selectFrom('organisation_members').select('user_id').where('organisation_id', '=', auth.organisation.id).where('role', '=', 'owner').execute();
    if (!owners.some((o) => o.user_id !== userId)) throw new ApiError(409, 'last_owner', 'This is the organisation\'s last owner; make someone else an owner first.');
  }

  /**
   * A single-use link with an expiry. The seat check and the insert happen under a lock on the organisation row, so two
   * invitations sent at once cannot both take the last seat.
   */
  async function invite(auth: AuthContext, input: { email: string; role: Role }, baseUrl: string, now = new Date()) {
    const email = normaliseEmail(input.email);
    const me = actor(auth);
    if (input.role === 'owner' && me.role !== 'owner') throw new ApiError(403, 'role_forbids', 'Only an owner can invite another owner.');
    const token = randomBytes(24).toString('base64url');
    const url = `${baseUrl.replace(/\/+$/, '')}/#/invite/${token}`;
    const invitation = await db.transaction().execute(async (trx) => {
      await trx.selectFrom('organisations').select('id').where('id', '=', auth.organisation.id).forUpdate().executeTakeFirstOrThrow();
      const existing = await trx
        .selectFrom('organisation_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select('u.id')
        .where('m.organisation_id', '=', auth.organisation.id)
        .where('u.email', '=', email)
        .executeTakeFirst();
      if (existing) throw new ApiError(409, 'already_member', `${email} is already a member of this organisation.`);
      const pending = await trx
        .selectFrom('invitations')
        .select('id')
        .where('organisation_id', '=', auth.organisation.id)
        .where('email', '=', email)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (pending) throw new ApiError(409, 'invitation_pending', `${email} already has a pending invitation (${pending.id}); withdraw it first to send a new one.`, { invitation_id: pending.id });
      limitsOf(auth.organisation);
      const seats = await seatsOf(trx, auth.organisation.id, now);
      if (seats.limit !== null && seats.used >= seats.limit) {
        const limit = seats.limit;
        const advice = remedy(auth.organisation, (other) => other.seats > limit, 'Or move the organisation to a plan with more seats.');
        throw new ApiError(
          402,
          'seats_exhausted',
          `All ${seats.limit} seats of the ${seats.plan} plan are taken (${seats.members} member${seats.members === 1 ? '' : 's'}, ${seats.pending_invitations} pending invitation${seats.pending_invitations === 1 ? '' : 's'}). Remove a member or withdraw an invitation to free a seat. ${advice}`,
          { seats },
        );
      }
      return trx
        .insertInto('invitations')
        .values({
          id: newId('inv'),
          organisation_id: auth.organisation.id,
          project_id: auth.project.id,
          email,
          role: input.role,
          token_hash: hashSecret(token),
          url_ciphertext: secretKey ? sealSecret(secretKey, url, 'invitation') : null,
          invited_by: auth.user?.id ?? null,
          created_at: now,
          expires_at: new Date(now.getTime() + deps.invitationTtlMs),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    let mailed = false;
    if (mailer) {
      try {
        await mailer.send({
          to: email,
          subject: `You are invited to ${auth.organisation.name} on Parlance`,
          text: `${auth.user?.email ?? 'Someone'} invited you to join ${auth.organisation.name} on Parlance as ${input.role} (project ${auth.project.name}).\n\nAccept the invitation (valid until ${invitation.expires_at.toISOString()}, single use):\n${url}\n`,
        });
        mailed = true;
        await db.updateTable('invitations').set({ mailed: true }).where('id', '=', invitation.id).execute();
      } catch (error) {
        deps.log.warn('invitation mail not sent', { invitation: invitation.id, error });
      }
    }
    return publicInvitation({ ...invitation, mailed }, url);
  }

  async function invitations(auth: AuthContext) {
    const rows = await db.selectFrom('invitations').selectAll().where('organisation_id', '=', auth.organisation.id).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return rows.map((r) => publicInvitation(r, r.url_ciphertext && secretKey && !r.accepted_at && !r.revoked_at ? openSecret(secretKey, r.url_ciphertext, 'invitation') : null));
  }

  async function revokeInvitation(auth: AuthContext, id: string, now = new Date()) {
    const row = await db.selectFrom('invitations').selectAll().where('id', '=', id).where('organisation_id', '=', auth.organisation.id).executeTakeFirst();
    if (!row) throw notFound('invitation_not_found', `No invitation '${id}' in this organisation.`);
    if (row.accepted_at) throw new ApiError(409, 'invitation_used', `Invitation ${id} was already accepted; remove the member instead.`);
    const revoked = row.revoked_at ? row : await db.updateTable('invitations').set({ revoked_at: now }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    return publicInvitation(revoked, null);
  }

  return { list, setRole, remove, invite, invitations, revokeInvitation };
}

function publicInvitation(row: Invitation, url: string | null) {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    url,
    expires_at: row.expires_at.toISOString(),
    accepted_at: row.accepted_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    mailed: row.mailed,
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
