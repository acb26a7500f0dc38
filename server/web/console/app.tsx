/** The console's shell: who is signed in, which route is open, and the page frame (skip link, banner, live region). */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { AccountClient } from '../../../src/client/account.js';
import { ApiError } from '../../../src/client/client.js';
import type { AccountSession } from '../../../src/client/types.js';
import { Loading } from './components.js';
import { AccountContext, type AccountContextValue } from './context.js';
import { errorMessage } from './format.js';
import { AccountPage } from './pages/account.js';
import { InvitePage } from './pages/invite.js';
import { NotFoundPage } from './pages/not-found.js';
import { ProjectsPage } from './pages/projects.js';
import { SignInPage, SignUpPage } from './pages/sign-in.js';
import { ProjectShell } from './project-shell.js';
import { navigate, parseRoute, type Route } from './router.js';

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

const PUBLIC_ROUTES: ReadonlySet<Route['name']> = new Set(['sign-in', 'sign-up', 'invite', 'not-found']);

export function App(props: { account: AccountClient }) {
  const { account } = props;
  const route = useRoute();
  const [session, setSession] = useState<AccountSession | undefined>();
  const [checked, setChecked] = useState(false);
  const [sessionError, setSessionError] = useState<unknown>();
  const [message, setMessage] = useState('');

  const refreshSession = useCallback(async () => {
    try {
      const fresh = await account.session();
      setSession(fresh);
      setSessionError(undefined);
      return fresh;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        setSession(undefined);
        return undefined;
      }
      setSessionError(error);
      return undefined;
    } finally {
      setChecked(true);
    }
  }, [account]);

  useEffect(() => void refreshSession(), [refreshSession]);

  const announce = useCallback((text: string) => {
    // Clearing first makes a repeated message be announced again.
    setMessage('');
    setTimeout(() => setMessage(text), 50);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await account.signOut();
    } catch {
      // Already signed out on the server: the local state is what is left to clear.
    }
    setSession(undefined);
    announce('Signed out.');
    navigate('#/sign-in');
  }, [account, announce]);

  const context = useMemo<AccountContextValue>(() => ({ account, session, refreshSession, setSession, signOut, announce }), [account, session, refreshSession, signOut, announce]);

  // Routes that need a session send a signed-out visitor to sign in, and back here afterwards.
  const needsSignIn = checked && !session && !sessionError && !PUBLIC_ROUTES.has(route.name);
  useEffect(() => {
    if (needsSignIn) navigate(`#/sign-in?next=${encodeURIComponent(location.hash || '#/')}`);
  }, [needsSignIn]);

  useFocusOnNavigation(route);

  let body;
  if (!checked) body = <Loading what="your session" />;
  else if (sessionError) body = <SessionUnavailable error={sessionError} retry={() => void refreshSession()} />;
  else body = <RouteView route={route} />;

  return (
    <AccountContext.Provider value={context}>
      <a class="skip-link" href="#main" onClick={skipToMain}>
        Skip to main content
      </a>
      {body}
      <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" id="announcer">
        {message}
      </div>
    </AccountContext.Provider>
  );
}

/** The skip link's target is an element, not a route: keep the hash router out of it. */
function skipToMain(event: MouseEvent) {
  event.preventDefault();
  const main = document.getElementById('main');
  main?.focus();
  main?.scrollIntoView();
}

/** After a navigation (not the first load), focus moves to the new page's heading. */
function useFocusOnNavigation(route: Route) {
  const first = useRef(true);
  const key = route.name === 'project' ? `${route.projectId}/${route.page}/${route.id ?? ''}` : route.name;
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => document.getElementById('page-title')?.focus(), 60);
    return () => clearTimeout(timer);
  }, [key]);
}

function RouteView(props: { route: Route }) {
  const { route } = props;
  switch (route.name) {
    case 'sign-in':
      return <SignInPage next={route.next} />;
    case 'sign-up':
      return <SignUpPage next={route.next} />;
    case 'invite':
      return <InvitePage token={route.token} />;
    case 'account':
      return <AccountPage />;
    case 'projects':
      return <ProjectsPage />;
    case 'project':
      return <ProjectShell key={route.projectId} route={route} />;
    case 'not-found':
      return <NotFoundPage hash={route.hash} />;
  }
}

function SessionUnavailable(props: { error: unknown; retry: () => void }) {
  return (
    <main id="main" tabIndex={-1} class="auth-page">
      <h1 id="page-title" tabIndex={-1}>
        Parlance is not answering
      </h1>
      <p role="alert">{errorMessage(props.error)}</p>
      <button type="button" onClick={props.retry}>
        Try again
      </button>
    </main>
  );
}
