/** An invitation link (`#/invite/<token>`): what it offers, then sign up or sign in, then accept. */
import { ErrorNotice, Loading, Notice, PageHeader } from '../components.js';
import { useAccount } from '../context.js';
import { formatDate } from '../format.js';
import { AuthFrame } from '../frame.js';
import { useLoad, useRequest } from '../hooks.js';
import { navigate, projectHref } from '../router.js';
import { SignUpForm } from './sign-in.js';

export function InvitePage(props: { token: string }) {
  const { account, session, setSession, refreshSession, signOut, announce } = useAccount();
  const preview = useLoad(() => account.invitation(props.token), [props.token]);
  const request = useRequest();
  const here = `#/invite/${encodeURIComponent(props.token)}`;

  const accept = () =>
    request.submit(async () => {
      const accepted = await account.acceptInvitation(props.token);
      announce('Invitation accepted.');
      const fresh = await refreshSession();
      const project = fresh?.projects.find((p) => p.id === accepted.project_id) ?? fresh?.projects.find((p) => p.organisation_id === accepted.organisation_id);
      navigate(project ? projectHref(project.id) : '#/');
    });

  let body;
  if (preview.loading && !preview.data) body = <Loading what="the invitation" />;
  else if (preview.error || !preview.data) body = <ErrorNotice error={preview.error} title="This invitation cannot be used" />;
  else {
    const invite = preview.data;
    const sameAddress = session?.user.email.toLowerCase() === invite.email.toLowerCase();
    body = (
      <>
        <div class="card">
          <dl class="facts">
            <dt>Organisation</dt>
            <dd>{invite.organisation.name}</dd>
            {invite.project ? (
              <>
                <dt>Project</dt>
                <dd>{invite.project.name}</dd>
              </>
            ) : null}
            <dt>Role</dt>
            <dd>{invite.role}</dd>
            <dt>For</dt>
            <dd>{invite.email}</dd>
            <dt>Expires</dt>
            <dd>{formatDate(invite.expires_at)}</dd>
          </dl>
        </div>
        {session && sameAddress ? (
          <>
            <p>You are signed in as {session.user.email}.</p>
            <ErrorNotice error={request.error} title="Not accepted" />
            <div class="actions">
              <button type="button" onClick={() => void accept()} disabled={request.busy}>
                {request.busy ? 'Accepting…' : `Accept and join ${invite.organisation.name}`}
              </button>
            </div>
          </>
        ) : null}
        {session && !sameAddress ? (
          <Notice kind="warning">
            <p>
              You are signed in as <strong>{session.user.email}</strong>, but this invitation is for <strong>{invite.email}</strong>. Sign out, then open the link again
              to sign in or sign up with the invited address.
            </p>
            <button type="button" class="secondary" onClick={() => void signOut().then(() => navigate(here))}>
              Sign out
            </button>
          </Notice>
        ) : null}
        {!session ? (
          <div class="two-columns">
            <section aria-labelledby="invite-new">
              <h2 id="invite-new">New to Parlance</h2>
              <p>Create your account with the invited address; you join {invite.organisation.name} at once.</p>
              <SignUpForm
                invitation={props.token}
                email={invite.email}
                onSignedUp={(fresh) => {
                  setSession(fresh);
                  const project = fresh.projects.find((p) => p.id === invite.project?.id) ?? fresh.projects.find((p) => p.organisation_id === invite.organisation.id);
                  navigate(project ? projectHref(project.id) : '#/');
                }}
              />
            </section>
            <section aria-labelledby="invite-existing">
              <h2 id="invite-existing">Already have an account</h2>
              <p>Sign in as {invite.email}; you come back here to accept.</p>
              <p>
                <a class="button-link" href={`#/sign-in?next=${encodeURIComponent(here)}`}>
                  Sign in to accept
                </a>
              </p>
            </section>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <AuthFrame>
      <PageHeader title={preview.data ? `Join ${preview.data.organisation.name} on Parlance` : 'Invitation'} />
      {body}
    </AuthFrame>
  );
}
