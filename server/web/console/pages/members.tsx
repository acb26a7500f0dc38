/** Members of the project's organisation: their role on this project, removal, and the seats they take. */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { Member, Role, Seats } from '../../../../src/client/types.js';
import { DataTable, ErrorNotice, Loading, ProgressBar, ProjectPage } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatDate, plural } from '../format.js';
import { useLoad } from '../hooks.js';
import { projectHref } from '../router.js';

export const ROLES: { role: Role; label: string; abilities: string }[] = [
  { role: 'owner', label: 'Owner', abilities: 'push, pull, read, write, manage' },
  { role: 'admin', label: 'Admin', abilities: 'push, pull, read, write, manage' },
  { role: 'developer', label: 'Developer', abilities: 'push, pull, read, write' },
  { role: 'translator', label: 'Translator', abilities: 'read, write' },
];

export function MembersPage() {
  return (
    <ProjectPage
      title="Members"
      ability="manage"
      intro={
        <p>
          Everyone in the organisation, with their role on this project. A role set here applies to this project only; elsewhere the member keeps their organisation
          role. Changes apply to their next request.
        </p>
      }
    >
      <Members />
    </ProjectPage>
  );
}

export function SeatsMeter(props: { seats: Seats }) {
  const { seats } = props;
  return (
    <ProgressBar
      label="Seats used"
      value={seats.used}
      max={seats.limit ?? Math.max(seats.used, 1)}
      tone={seats.limit !== null && seats.used >= seats.limit ? 'bad' : 'ok'}
      text={`${seats.used} of ${seats.limit ?? 'unlimited'} seats used (${plural(seats.members, 'member')}, ${plural(seats.pending_invitations, 'pending invitation')}; ${seats.plan} plan)`}
    />
  );
}

function Members() {
  const { client, projectId } = useProject();
  const { session, announce, refreshSession } = useAccount();
  const data = useLoad(() => client.members(), [client]);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<string | undefined>();
  const [pending, setPending] = useState<Record<string, Role>>({});

  const replace = (member: Member, removed = false) => {
    if (!data.data) return;
    const items = removed ? data.data.items.filter((m) => m.user_id !== member.user_id) : data.data.items.map((m) => (m.user_id === member.user_id ? member : m));
    data.set({ ...data.data, items });
  };

  const setRole = async (member: Member, role: Role) => {
    setBusy(member.user_id);
    setError(undefined);
    try {
      const updated = await client.setMemberRole(member.user_id, role);
      replace(updated);
      setPending(({ [member.user_id]: _done, ...rest }) => rest);
      announce(`${member.email} is now ${updated.role} on this project.`);
      if (member.user_id === session?.user.id) await refreshSession();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(undefined);
    }
  };

  const remove = async (member: Member) => {
    if (!window.confirm(`Remove ${member.email} from the organisation? They lose access to every project in it at once.`)) return;
    setBusy(member.user_id);
    setError(undefined);
    try {
      await client.removeMember(member.user_id);
      replace(member, true);
      data.reload();
      announce(`${member.email} removed; their seat is free.`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(undefined);
    }
  };

  if (data.loading && !data.data) return <Loading what="members" />;
  if (!data.data) return <ErrorNotice error={data.error} title="Members unavailable" />;
  return (
    <>
      <section class="card" aria-labelledby="seats-title">
        <h2 id="seats-title" class="h-small">
          Seats
        </h2>
        <SeatsMeter seats={data.data.seats} />
        <p class="hint">
          Members and pending invitations each take a seat. <a href={projectHref(projectId, 'invitations')}>Invite someone</a>.
        </p>
      </section>
      <ErrorNotice error={error} title="Not changed" />
      <DataTable label="Members" columns={['Member', 'Role on this project', 'Organisation role', 'Abilities here', 'Joined']} actions>
        {data.data.items.map((m) => {
          const id = `role-${m.user_id}`;
          const chosen = pending[m.user_id] ?? m.role;
          return (
            <tr key={m.user_id}>
              <th scope="row">
                {m.name ?? m.email}
                {m.name ? <span class="muted"> {m.email}</span> : null}
                {m.user_id === session?.user.id ? <span class="muted"> (you)</span> : null}
              </th>
              <td>
                {/* Changing the select only picks a role; the button applies it, so arrowing through the options changes nothing. */}
                <form
                  class="role-form"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (chosen !== m.role) void setRole(m, chosen);
                  }}
                >
                  <label for={id} class="visually-hidden">
                    Role of {m.email} on this project
                  </label>
                  <select id={id} value={chosen} disabled={busy === m.user_id} onChange={(e) => setPending((p) => ({ ...p, [m.user_id]: e.currentTarget.value as Role }))}>
                    {ROLES.map((r) => (
                      <option key={r.role} value={r.role}>
                        {r.label}
                      </option>
                    ))}
                  </select>
                  {chosen !== m.role ? (
                    <button type="submit" class="small" disabled={busy === m.user_id} aria-label={`Apply the role ${chosen} to ${m.email}`}>
                      Apply
                    </button>
                  ) : null}
                </form>
                {m.project_override ? <span class="muted"> set for this project</span> : null}
              </td>
              <td>{m.organisation_role}</td>
              <td>{m.abilities.join(', ')}</td>
              <td>{formatDate(m.joined_at)}</td>
              <td>
                <button type="button" class="small danger" disabled={busy === m.user_id} onClick={() => void remove(m)} aria-label={`Remove ${m.email}`}>
                  Remove
                </button>
              </td>
            </tr>
          );
        })}
      </DataTable>
      <details class="card">
        <summary>What each role can do</summary>
        <dl class="facts">
          {ROLES.map((r) => (
            <Fragment key={r.role}>
              <dt>{r.label}</dt>
              <dd>{r.abilities}</dd>
            </Fragment>
          ))}
        </dl>
      </details>
    </>
  );
}
