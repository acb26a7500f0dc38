/** Sign in and sign up: the two pages before a session exists. */
import { useEffect, useState } from 'preact/hooks';
import type { AccountSession } from '../../../../src/client/types.js';
import { ErrorNotice, Field, PageHeader } from '../components.js';
import { useAccount } from '../context.js';
import { AuthFrame } from '../frame.js';
import { useRequest } from '../hooks.js';
import { navigate, safeNext } from '../router.js';

/** After signing in: back where the person was going, else the project list (or straight into the only project). */
export function afterSignIn(session: AccountSession, next: string | undefined): string {
  const target = safeNext(next);
  if (target !== '#/') return target;
  const only = session.projects.length === 1 ? session.projects[0] : undefined;
  return only ? `#/p/${encodeURIComponent(only.id)}` : '#/';
}

export function SignInPage(props: { next: string | undefined }) {
  const { account, session, setSession, announce } = useAccount();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const request = useRequest();

  useEffect(() => {
    if (session) navigate(afterSignIn(session, props.next));
  }, [session, props.next]);

  const submit = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const signedIn = await account.signIn({ email: email.trim(), password });
      announce(`Signed in as ${signedIn.user.email}.`);
      setSession(signedIn);
    });
  };

  return (
    <AuthFrame>
      <PageHeader title="Sign in to Parlance" />
      <form class="card form" onSubmit={(e) => void submit(e)} aria-describedby={request.error ? 'sign-in-error' : undefined}>
        <Field id="sign-in-email" label="Email">
          <input id="sign-in-email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </Field>
        <Field id="sign-in-password" label="Password">
          <input id="sign-in-password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </Field>
        <div id="sign-in-error">
          <ErrorNotice error={request.error} title="Not signed in" />
        </div>
        <button type="submit" disabled={request.busy}>
          {request.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        No account yet? <a href={`#/sign-up${props.next ? `?next=${encodeURIComponent(props.next)}` : ''}`}>Create one</a>.
      </p>
    </AuthFrame>
  );
}

/** The sign-up form, also used on the invitation page (then with the invited address and the invitation token). */
export function SignUpForm(props: { invitation?: string; email?: string; onSignedUp: (session: AccountSession) => void }) {
  const { account, announce } = useAccount();
  const [name, setName] = useState('');
  const [email, setEmail] = useState(props.email ?? '');
  const [password, setPassword] = useState('');
  const request = useRequest();

  const submit = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const session = await account.signUp({ email: email.trim(), password, ...(name.trim() ? { name: name.trim() } : {}), ...(props.invitation ? { invitation: props.invitation } : {}) });
      announce(`Account created for ${session.user.email}.`);
      props.onSignedUp(session);
    });
  };

  return (
    <form class="card form" onSubmit={(e) => void submit(e)}>
      <Field id="sign-up-name" label="Name (optional)">
        <input id="sign-up-name" type="text" autoComplete="name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      <Field id="sign-up-email" label="Email" hint={props.email ? 'The invitation is for this address.' : undefined}>
        <input
          id="sign-up-email"
          type="email"
          autoComplete="username"
          required
          readOnly={props.email !== undefined}
          aria-describedby={props.email ? 'sign-up-email-hint' : undefined}
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
      </Field>
      <Field id="sign-up-password" label="Password" hint="At least 10 characters.">
        <input
          id="sign-up-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          maxLength={256}
          aria-describedby="sign-up-password-hint"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </Field>
      <ErrorNotice error={request.error} title="No account created" />
      <button type="submit" disabled={request.busy}>
        {request.busy ? 'Creating the account…' : props.invitation ? 'Create account and join' : 'Create account'}
      </button>
    </form>
  );
}

export function SignUpPage(props: { next: string | undefined }) {
  const { session, setSession } = useAccount();
  useEffect(() => {
    if (session) navigate(afterSignIn(session, props.next));
  }, [session, props.next]);
  return (
    <AuthFrame>
      <PageHeader title="Create a Parlance account">
        <p>
          The first account on a new installation becomes the owner of its Demo organisation. Every later account gets an organisation of its own on the free plan, where
          you create your first project. Invited? Open the link from your invitation instead, to join that organisation.
        </p>
      </PageHeader>
      <SignUpForm onSignedUp={setSession} />
      <p>
        Already have an account? <a href={`#/sign-in${props.next ? `?next=${encodeURIComponent(props.next)}` : ''}`}>Sign in</a>.
      </p>
    </AuthFrame>
  );
}
