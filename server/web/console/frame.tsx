/** The signed-in page frame: banner with the project switcher and the account menu, optional side navigation, main. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { AccountSession } from '../../../src/client/types.js';
import { Loading } from './components.js';
import { useAccount } from './context.js';
import { navigate, projectHref } from './router.js';

export function Frame(props: { children: ComponentChildren; nav?: ComponentChildren; projectId?: string }) {
  const { session, signOut } = useAccount();
  if (!session) {
    return (
      <main id="main" tabIndex={-1} class="auth-page">
        <Loading what="your session" />
      </main>
    );
  }
  const organisations = new Map(session.organisations.map((o) => [o.id, o.name]));
  return (
    <div class="app">
      <header class="banner">
        <a class="brand" href="#/">
          Parlance
        </a>
        {session.projects.length > 0 ? <ProjectSwitch projects={session.projects} organisations={organisations} current={props.projectId} /> : null}
        <nav class="account-menu" aria-label="Account">
          <a href="#/account">{session.user.name ?? session.user.email}</a>
          <button type="button" class="link-button" onClick={() => void signOut()}>
            Sign out
          </button>
        </nav>
      </header>
      <div class={props.nav ? 'layout with-nav' : 'layout'}>
        {props.nav}
        <main id="main" tabIndex={-1}>
          {props.children}
        </main>
      </div>
    </div>
  );
}

/** The frame of the pages before sign-in. */
export function AuthFrame(props: { children: ComponentChildren }) {
  return (
    <div class="auth">
      <header class="auth-banner">
        <a class="brand" href="#/">
          Parlance
        </a>
      </header>
      <main id="main" tabIndex={-1} class="auth-page">
        {props.children}
      </main>
    </div>
  );
}

/** Picking a project does nothing until "Open": a select that navigated on change would jump away on every arrow key. */
function ProjectSwitch(props: { projects: AccountSession['projects']; organisations: Map<string, string>; current: string | undefined }) {
  const [chosen, setChosen] = useState(props.current ?? '');
  return (
    <form
      class="project-switch"
      onSubmit={(e) => {
        e.preventDefault();
        navigate(chosen ? projectHref(chosen) : '#/');
      }}
    >
      <label for="project-switch">Project</label>
      <select id="project-switch" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
        <option value="">All projects</option>
        {props.projects.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({props.organisations.get(p.organisation_id) ?? p.organisation_id})
          </option>
        ))}
      </select>
      <button type="submit" class="small secondary" disabled={chosen === (props.current ?? '')}>
        Open
      </button>
    </form>
  );
}
