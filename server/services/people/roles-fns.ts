/** Organisation roles and what each may do on a project: pure rules shared by sign-in credentials and the members API. */
import type { Ability } from '../tokens/token-fns.js';

export const ROLES = ['owner', 'admin', 'developer', 'translator'] as const;
export type Role = (typeof ROLES)[number];

/** Owner and admin: all five abilities; developer moves files and edits; translator reads and edits. */
export const ROLE_ABILITIES: Record<Role, readonly Ability[]> = {
  owner: ['push', 'pull', 'read', 'write', 'manage'],
  admin: ['push', 'pull', 'read', 'write', 'manage'],
  developer: ['push', 'pull', 'read', 'write'],
  translator: ['read', 'write'],
};

/** A project's own role for the member wins over the organisation role. */
export function effectiveRole(organisationRole: Role, projectRole: Role | null | undefined): Role {
  return projectRole ?? organisationRole;
}

/**
 * Who may give whom which role: only an owner grants or takes away `owner`, and nobody changes their own role (so an
 * admin cannot promote themselves, and the last owner cannot lock everyone out by accident).
 */
export function roleChangeProblem(input: { actorRole: Role; actorId: string; targetId: string; from: Role; to: Role }): string | undefined {
  if (input.actorId === input.targetId) return 'You cannot change your own role; ask another owner or admin.';
  if ((input.to === 'owner' || input.from === 'owner') && input.actorRole !== 'owner') return `Only an owner can ${input.to === 'owner' ? 'make someone an owner' : "change an owner's role"}.`;
  return undefined;
}

/** Lower-cased and trimmed; the one form addresses are stored and compared in. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
