/** The signed-in person: password change and the browser sessions they can revoke. */
import { useState } from 'preact/hooks';
import { DataTable, ErrorNotice, Field, Loading, Notice, PageHeader } from '../components.js';
import { useAccount } from '../context.js';
import { formatDate } from '../format.js';
import { Frame } from '../frame.js';
import { useLoad, useRequest } from '../hooks.js';
import { navigate } from '../router.js';

export function AccountPage() {
  const { session } = useAccount();
  return (
    <Frame>
      <PageHeader title="Your account">
        {session ? (
          <p>
            Signed in as <strong>{session.user.email}</strong>
            {session.user.name ? ` (${session.user.name})` : ''} since {formatDate(session.session.created_at)}. This session ends {formatDate(session.session.expires_at)}.
          </p>
        ) : null}
      </PageHeader>
      <PasswordForm />
      <Sessions />
    </Frame>
  );
}

function PasswordForm() {
  const { account, announce, session } = useAccount();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const request = useRequest();
  const [done, setDone] = useState(false);
  const mismatch = repeat !== '' && next !== repeat;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (next !== repeat) return;
    await request.submit(async () => {
      setDone(false);
      await account.changePassword({ current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setRepeat('');
      setDone(true);
      announce('Password changed. Your other sessions were signed out.');
    });
  };

  return (
    <section class="card" aria-labelledby="password-title">
      <h2 id="password-title">Change your password</h2>
      <form class="form" onSubmit={(e) => void submit(e)}>
        {/* Lets password managers know whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={session?.user.email ?? ''} readOnly hidden />
        <Field id="password-current" label="Current password">
          <input id="password-current" type="password" autoComplete="current-password" required value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
        </Field>
        <Field id="password-new" label="New password" hint="At least 10 characters. Every other session of yours is signed out.">
          <input
            id="password-new"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            aria-describedby="password-new-hint"
            value={next}
            onInput={(e) => setNext(e.currentTarget.value)}
          />
        </Field>
        <Field id="password-repeat" label="New password again">
          <input
            id="password-repeat"
            type="password"
            autoComplete="new-password"
            required
            aria-invalid={mismatch}
            aria-describedby={mismatch ? 'password-mismatch' : undefined}
            value={repeat}
            onInput={(e) => setRepeat(e.currentTarget.value)}
          />
        </Field>
        {mismatch ? (
          <p id="password-mismatch" class="field-error">
            The two new passwords differ.
          </p>
        ) : null}
        <ErrorNotice error={request.error} title="Password not changed" />
        {done ? (
          <Notice kind="success" live>
            <p>Password changed. Your other sessions were signed out.</p>
          </Notice>
        ) : null}
        <button type="submit" disabled={request.busy || mismatch}>
          {request.busy ? 'Changing…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}

function Sessions() {
  const { account, announce, setSession } = useAccount();
  const sessions = useLoad(() => account.sessions(), []);
  const request = useRequest();

  const revoke = async (id: string, current: boolean) => {
    if (current && !window.confirm('Revoke this session? You will be signed out here.')) return;
    await request.attempt(async () => {
      await account.revokeSession(id);
      if (current) {
        setSession(undefined);
        navigate('#/sign-in');
        return;
      }
      announce('Session revoked.');
      sessions.reload();
    });
  };

  return (
    <section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Active sessions</h2>
      <p class="hint">Each browser where you are signed in. Revoking one signs it out at once, with every project credential it holds.</p>
      <ErrorNotice error={request.error ?? sessions.error} title="Sessions" />
      {sessions.loading && !sessions.data ? <Loading what="sessions" /> : null}
      {sessions.data ? (
        <DataTable label="Active sessions" columns={['Browser', 'Address', 'Signed in', 'Last seen', 'Expires']} actions>
          {sessions.data.map((s) => (
            <tr key={s.id}>
              <td>
                {s.user_agent ?? 'Unknown browser'}
                {s.current ? (
                  <>
                    {' '}
                    <span class="badge state-human">This browser</span>
                  </>
                ) : null}
              </td>
              <td>{s.ip ?? '—'}</td>
              <td>{formatDate(s.created_at)}</td>
              <td>{formatDate(s.last_seen_at)}</td>
              <td>{formatDate(s.expires_at)}</td>
              <td>
                <button type="button" class="danger small" onClick={() => void revoke(s.id, s.current)} aria-label={`Revoke session ${s.current ? '(this browser)' : `from ${formatDate(s.created_at)}`}`}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
