/** The project picker, and the form that creates a project (the first one, for a new organisation). */
import { useState } from 'preact/hooks';
import type { AccountSession } from '../../../../src/client/types.js';
import { checkLocale } from '../../../../src/core/locales/locales.js';
import { ErrorNotice, Field, PageHeader } from '../components.js';
import { useAccount } from '../context.js';
import { Frame } from '../frame.js';
import { useRequest } from '../hooks.js';
import { navigate, projectHref } from '../router.js';

type Organisation = AccountSession['organisations'][number];

export function ProjectsPage() {
  const { session } = useAccount();
  if (!session) return <Frame>{null}</Frame>;
  const none = session.projects.length === 0;
  return (
    <Frame>
      <PageHeader title={none ? 'Create your first project' : 'Your projects'}>
        {none ? <p>A project holds the source files of one application and their translations. Create one to push your first file.</p> : null}
      </PageHeader>
      {session.organisations.map((org) => (
        <OrganisationProjects key={org.id} org={org} session={session} />
      ))}
      {session.organisations.length === 0 ? <p>You are not a member of any organisation. Ask for an invitation, or sign up again with a new address.</p> : null}
    </Frame>
  );
}

function OrganisationProjects(props: { org: Organisation; session: AccountSession }) {
  const { org, session } = props;
  const projects = session.projects.filter((p) => p.organisation_id === org.id);
  const canCreate = org.role === 'owner' || org.role === 'admin';
  const headingId = `org-${org.id}`;
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {org.name} <span class="muted">· {org.plan} plan · your role: {org.role}</span>
      </h2>
      {projects.length > 0 ? (
        <ul class="project-list">
          {projects.map((p) => (
            <li key={p.id}>
              <a href={projectHref(p.id)}>{p.name}</a>
              <span class="muted">
                {' '}
                · source {p.source_locale} · your role: {p.role}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p>No projects yet.</p>
      )}
      {canCreate ? <CreateProjectForm org={org} open={projects.length === 0} /> : null}
    </section>
  );
}

/** Splits "de, fr ja" and checks each tag as the service will (BCP-47, known language). */
export function parseLocaleList(text: string): { tags: string[]; errors: string[] } {
  const tags: string[] = [];
  const errors: string[] = [];
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const check = checkLocale(part);
    if (check.ok) tags.push(check.tag);
    else errors.push(check.message);
  }
  return { tags, errors };
}

function CreateProjectForm(props: { org: Organisation; open: boolean }) {
  const { account, refreshSession, announce } = useAccount();
  const [name, setName] = useState('');
  const [source, setSource] = useState('en');
  const [targets, setTargets] = useState('de, fr');
  const request = useRequest();
  const prefix = `new-project-${props.org.id}`;
  const sourceCheck = checkLocale(source);
  const targetCheck = parseLocaleList(targets);
  const invalid = !sourceCheck.ok || targetCheck.errors.length > 0;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (invalid || !sourceCheck.ok) return;
    await request.submit(async () => {
      const created = await account.createProject({ organisation_id: props.org.id, name: name.trim(), source_locale: sourceCheck.tag, target_locales: targetCheck.tags });
      announce(`Project ${created.name} created.`);
      await refreshSession();
      navigate(projectHref(created.id));
    });
  };

  return (
    <details class="create-project" open={props.open}>
      <summary>Create a project in {props.org.name}</summary>
      <form class="form" onSubmit={(e) => void submit(e)}>
        <Field id={`${prefix}-name`} label="Project name">
          <input id={`${prefix}-name`} type="text" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <Field id={`${prefix}-source`} label="Source language" hint="The language your files are written in, as a BCP-47 tag such as en or en-US.">
          <input
            id={`${prefix}-source`}
            type="text"
            required
            class="narrow"
            aria-invalid={!sourceCheck.ok}
            aria-describedby={`${prefix}-source-hint${!sourceCheck.ok ? ` ${prefix}-source-error` : ''}`}
            value={source}
            onInput={(e) => setSource(e.currentTarget.value)}
          />
        </Field>
        {!sourceCheck.ok && source !== '' ? (
          <p id={`${prefix}-source-error`} class="field-error">
            {sourceCheck.message}
          </p>
        ) : null}
        <Field id={`${prefix}-targets`} label="Target languages" hint="Separated by commas or spaces, e.g. de, fr, ja. You can add more later.">
          <input
            id={`${prefix}-targets`}
            type="text"
            aria-invalid={targetCheck.errors.length > 0}
            aria-describedby={`${prefix}-targets-hint${targetCheck.errors.length ? ` ${prefix}-targets-error` : ''}`}
            value={targets}
            onInput={(e) => setTargets(e.currentTarget.value)}
          />
        </Field>
        {targetCheck.errors.length > 0 ? (
          <p id={`${prefix}-targets-error`} class="field-error">
            {targetCheck.errors.join(' ')}
          </p>
        ) : null}
        <ErrorNotice error={request.error} title="Project not created" />
        <button type="submit" disabled={request.busy || invalid}>
          {request.busy ? 'Creating…' : 'Create project'}
        </button>
      </form>
    </details>
  );
}
