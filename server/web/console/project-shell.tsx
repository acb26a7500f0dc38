/** One open project: its credential (re-minted on every switch), the navigation the role allows, and the page. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError } from '../../../src/client/client.js';
import type { ProjectCredential } from '../../../src/client/types.js';
import { ErrorNotice, Loading, PageHeader } from './components.js';
import { ProjectContext, useAccount, type Ability, type ProjectContextValue } from './context.js';
import { Frame } from './frame.js';
import { connectProject, type ProjectConnection } from './project-connection.js';
import { navigate, projectHref, type ProjectPage, type Route } from './router.js';
import { BatchesPage } from './pages/batches.js';
import { DeliveryPage } from './pages/delivery.js';
import { GithubPage } from './pages/github.js';
import { GlossaryPage } from './pages/glossary.js';
import { ImportsPage } from './pages/imports.js';
import { IntegrationsPage } from './pages/integrations.js';
import { InvitationsPage } from './pages/invitations.js';
import { KeysPage } from './pages/keys.js';
import { LanguagesPage } from './pages/languages.js';
import { MembersPage } from './pages/members.js';
import { OverviewPage } from './pages/overview.js';
import { ReviewPage } from './pages/review.js';
import { TokensPage } from './pages/tokens.js';
import { TranslationPage } from './pages/translation.js';
import { UploadPage } from './pages/upload.js';
import { UsagePage } from './pages/usage.js';
import { WebhooksPage } from './pages/webhooks.js';

interface NavEntry {
  page: ProjectPage;
  label: string;
  ability: Ability;
}

/** Grouped as people look for them; each entry shows only to roles with its ability. */
export const NAV: { group: string; entries: NavEntry[] }[] = [
  {
    group: 'Translate',
    entries: [
      { page: 'overview', label: 'Overview', ability: 'read' },
      { page: 'keys', label: 'Keys and translations', ability: 'read' },
      { page: 'review', label: 'Review queue', ability: 'write' },
      { page: 'glossary', label: 'Glossary', ability: 'read' },
    ],
  },
  {
    group: 'Sources',
    entries: [
      { page: 'upload', label: 'Upload', ability: 'push' },
      { page: 'imports', label: 'Import', ability: 'manage' },
      { page: 'integrations', label: 'Integrations', ability: 'read' },
      { page: 'batches', label: 'Batches', ability: 'read' },
      { page: 'delivery', label: 'Delivery', ability: 'read' },
      { page: 'languages', label: 'Languages', ability: 'read' },
      { page: 'translation', label: 'Translation', ability: 'read' },
      { page: 'usage', label: 'Usage', ability: 'read' },
    ],
  },
  {
    group: 'Settings',
    entries: [
      { page: 'members', label: 'Members', ability: 'manage' },
      { page: 'invitations', label: 'Invitations', ability: 'manage' },
      { page: 'tokens', label: 'API tokens', ability: 'manage' },
      { page: 'webhooks', label: 'Webhooks', ability: 'manage' },
      { page: 'github', label: 'GitHub', ability: 'manage' },
    ],
  },
];

type Opened = { state: 'opening' } | { state: 'open'; credential: ProjectCredential } | { state: 'failed'; error: unknown };

export function ProjectShell(props: { route: Extract<Route, { name: 'project' }> }) {
  const { account, session, setSession, announce } = useAccount();
  const { projectId } = props.route;
  const [opened, setOpened] = useState<Opened>({ state: 'opening' });
  const [connection, setConnection] = useState<ProjectConnection>();

  useEffect(() => {
    const created = connectProject({
      account,
      projectId,
      onSignedOut: () => {
        setSession(undefined);
        announce('Your session ended: sign in again.');
        navigate(`#/sign-in?next=${encodeURIComponent(location.hash)}`);
      },
      onRenewed: (credential) => setOpened({ state: 'open', credential }),
      onRetry: announce,
    });
    setConnection(created);
    created.ready.catch((error: unknown) => setOpened({ state: 'failed', error }));
    return () => created.close();
  }, [account, projectId, setSession, announce]);

  const project = session?.projects.find((p) => p.id === projectId);
  const organisation = session?.organisations.find((o) => o.id === project?.organisation_id);

  const value = useMemo<ProjectContextValue | undefined>(() => {
    if (opened.state !== 'open' || !connection || !project) return undefined;
    const abilities = opened.credential.abilities;
    return { projectId, project, organisation, client: connection.client, role: opened.credential.role, abilities, can: (a) => abilities.includes(a) };
  }, [opened, connection, project, organisation, projectId]);

  if (!session) return <Frame projectId={projectId}>{null}</Frame>;
  if (!project || opened.state === 'failed') {
    const notFound = !project || (opened.state === 'failed' && opened.error instanceof ApiError && opened.error.status === 404);
    return (
      <Frame projectId={projectId}>
        <PageHeader title="Project not available" />
        {notFound ? <p>You have no project with the id {projectId}. It may have been removed, or you may no longer be a member of its organisation.</p> : null}
        {opened.state === 'failed' ? <ErrorNotice error={opened.error} title="Could not open the project" /> : null}
        <p>
          <a href="#/">Choose a project</a>
        </p>
      </Frame>
    );
  }
  if (!value) {
    return (
      <Frame projectId={projectId}>
        <Loading what={`project ${project.name}`} />
      </Frame>
    );
  }
  return (
    <ProjectContext.Provider value={value}>
      <Frame projectId={projectId} nav={<ProjectNav current={props.route.page} />}>
        <ProjectPageView route={props.route} />
      </Frame>
    </ProjectContext.Provider>
  );
}

function ProjectNav(props: { current: ProjectPage }) {
  return (
    <ProjectContext.Consumer>
      {(ctx) =>
        ctx ? (
          <nav class="side-nav" aria-label="Project">
            <p class="nav-project">
              <span class="nav-project-name">{ctx.project.name}</span>
              <span class="nav-role">
                {ctx.organisation?.name ?? ''} · your role: <strong>{ctx.role}</strong>
              </span>
            </p>
            {NAV.map((group) => {
              const entries = group.entries.filter((e) => ctx.can(e.ability));
              if (entries.length === 0) return null;
              return (
                <div class="nav-group" key={group.group}>
                  <h2 class="nav-heading" id={`nav-${group.group}`}>
                    {group.group}
                  </h2>
                  <ul aria-labelledby={`nav-${group.group}`}>
                    {entries.map((e) => (
                      <li key={e.page}>
                        <a href={projectHref(ctx.projectId, e.page)} aria-current={props.current === e.page ? 'page' : undefined}>
                          {e.label}
                        </a>
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </nav>
        ) : null
      }
    </ProjectContext.Consumer>
  );
}

function ProjectPageView(props: { route: Extract<Route, { name: 'project' }> }) {
  const { page, id, query } = props.route;
  switch (page) {
    case 'overview':
      return <OverviewPage />;
    case 'keys':
      return <KeysPage query={query} />;
    case 'review':
      return <ReviewPage />;
    case 'upload':
      return <UploadPage />;
    case 'imports':
      return <ImportsPage importId={id} />;
    case 'batches':
      return <BatchesPage batchId={id} />;
    case 'delivery':
      return <DeliveryPage />;
    case 'glossary':
      return <GlossaryPage />;
    case 'languages':
      return <LanguagesPage />;
    case 'translation':
      return <TranslationPage />;
    case 'usage':
      return <UsagePage />;
    case 'members':
      return <MembersPage />;
    case 'invitations':
      return <InvitationsPage />;
    case 'tokens':
      return <TokensPage />;
    case 'webhooks':
      return <WebhooksPage webhookId={id} />;
    case 'github':
      return <GithubPage />;
    case 'integrations':
      return <IntegrationsPage connectorId={id} />;
  }
}
