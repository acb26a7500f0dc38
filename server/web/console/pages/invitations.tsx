/** Invitations: invite by email with a role, copy the link, withdraw; a refusal (seats full) says why and what to do. */
import { useState } from 'preact/hooks';
import type { Invitation, Role } from '../../../../src/client/types.js';
import { CopyButton, DataTable, ErrorNotice, Field, InputField, Loading, Notice, ProjectPage, SecretOnce } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatDate } from '../format.js';
import { useLoad, useRequest } from '../hooks.js';
import { ROLES, SeatsMeter } from './members.js';

export function InvitationsPage() {
  return (
    <ProjectPage
      title="Invitations"
      ability="manage"
      intro={
        <p>An invitation link works once, for the address it names, until it expires. A pending invitation takes a seat until it is accepted, withdrawn or expires.</p>
      }
    >
      <Invitations />
    </ProjectPage>
  );
}

function status(i: Invitation): 'accepted' | 'withdrawn' | 'expired' | 'pending' {
  if (i.accepted_at) return 'accepted';
  if (i.revoked_at) return 'withdrawn';
  if (Date.parse(i.expires_at) <= Date.now()) return 'expired';
  return 'pending';
}

function Invitations() {
  const { client } = useProject();
  const { announce } = useAccount();
  const data = useLoad(async () => {
    const [invitations, members] = await Promise.all([client.invitations(), client.members()]);
    return { invitations, seats: members.seats };
  }, [client]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('translator');
  const request = useRequest();
  const [created, setCreated] = useState<Invitation>();

  const invite = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      setCreated(undefined);
      const invitation = await client.invite({ email: email.trim(), role });
      setCreated(invitation);
      setEmail('');
      announce(`Invitation for ${invitation.email} created.`);
      data.reload();
    });
  };

  const revoke = async (invitation: Invitation) => {
    if (!window.confirm(`Withdraw the invitation for ${invitation.email}? The link stops working.`)) return;
    await request.attempt(async () => {
      await client.revokeInvitation(invitation.id);
      announce(`Invitation for ${invitation.email} withdrawn; its seat is free.`);
      data.reload();
    });
  };

  return (
    <>
      {data.data ? (
        <section class="card" aria-labelledby="invite-seats">
          <h2 id="invite-seats" class="h-small">
            Seats
          </h2>
          <SeatsMeter seats={data.data.seats} />
        </section>
      ) : null}
      <form class="card form" onSubmit={(e) => void invite(e)} aria-labelledby="invite-form-title">
        <h2 id="invite-form-title">Invite someone</h2>
        <div class="form-row">
          <InputField id="invite-email" label="Email" fieldClass="grow" type="email" required value={email} onValue={setEmail} />
          <Field id="invite-role" label="Role">
            <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {ROLES.map((r) => (
                <option key={r.role} value={r.role}>
                  {r.label} ({r.abilities})
                </option>
              ))}
            </select>
          </Field>
        </div>
        <ErrorNotice error={request.error} title="Not invited" />
        <button type="submit" disabled={request.busy}>
          {request.busy ? 'Inviting…' : 'Create invitation'}
        </button>
      </form>
      {created?.url ? (
        <SecretOnce
          label="Invitation link"
          value={created.url}
          note={`${created.mailed ? `Also sent by email to ${created.email}. ` : `No email was sent (SMTP is not configured): give the link to ${created.email} yourself. `}It works once, until ${formatDate(created.expires_at)}.`}
        />
      ) : null}
      {created && !created.url ? (
        <Notice kind="success" live>
          <p>Invitation created for {created.email}.</p>
        </Notice>
      ) : null}
      <ErrorNotice error={data.error} title="Invitations unavailable" />
      {data.loading && !data.data ? <Loading what="invitations" /> : null}
      {data.data && data.data.invitations.length === 0 ? <p>No invitations yet.</p> : null}
      {data.data && data.data.invitations.length > 0 ? (
        <DataTable label="Invitations" columns={['Email', 'Role', 'Status', 'Created', 'Expires', 'Link']} actions>
          {data.data.invitations.map((i) => {
            const state = status(i);
            return (
              <tr key={i.id}>
                <th scope="row">{i.email}</th>
                <td>{i.role}</td>
                <td>
                  <span class={`badge invite-${state}`}>{state}</span>
                </td>
                <td>{formatDate(i.created_at)}</td>
                <td>{formatDate(i.expires_at)}</td>
                <td>{i.url && state === 'pending' ? <CopyButton text={i.url} label={`Copy the invitation link for ${i.email}`} /> : <span class="muted">—</span>}</td>
                <td>
                  {state === 'pending' ? (
                    <button type="button" class="small danger" onClick={() => void revoke(i)} aria-label={`Withdraw the invitation for ${i.email}`}>
                      Withdraw
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </DataTable>
      ) : null}
    </>
  );
}
