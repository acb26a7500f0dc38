/** GitHub links: repositories the Parlance GitHub App pushes from and opens translation pull requests on. */
import { useState } from 'preact/hooks';
import type { GithubLink } from '../../../../src/client/client.js';
import { DataTable, ErrorNotice, Field, Loading, ProjectPage } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatDate } from '../format.js';
import { useLoad, useRequest } from '../hooks.js';

export function GithubPage() {
  return (
    <ProjectPage
      title="GitHub"
      ability="manage"
      intro={
        <p>
          Link a repository where the Parlance GitHub App is installed: pushes to the base branch send changed source files here, and each completed batch comes back as
          one pull request with the translated files. Linking needs the operator to have set <code>PARLANCE_SECRET_KEY</code> and <code>GITHUB_APP_EVENTS_URL</code>.
        </p>
      }
    >
      <Links />
    </ProjectPage>
  );
}

function Links() {
  const { client } = useProject();
  const { announce } = useAccount();
  const list = useLoad(() => client.githubLinks(), [client]);
  const [installation, setInstallation] = useState('');
  const [repository, setRepository] = useState('');
  const [branch, setBranch] = useState('main');
  const [configPath, setConfigPath] = useState('parlance.yml');
  const request = useRequest();

  const link = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const created = await client.linkGithub({ installation_id: Number(installation), repository: repository.trim(), base_branch: branch.trim() || 'main', config_path: configPath.trim() || 'parlance.yml' });
      announce(`Linked ${created.repository}.`);
      setRepository('');
      list.reload();
    });
  };

  const unlink = async (l: GithubLink) => {
    if (!window.confirm(`Unlink ${l.repository} (${l.base_branch})? Its App token is revoked.`)) return;
    await request.attempt(async () => {
      await client.unlinkGithub(l.id);
      announce(`Unlinked ${l.repository}.`);
      list.reload();
    });
  };

  return (
    <>
      <form class="card form" onSubmit={(e) => void link(e)} aria-labelledby="link-title">
        <h2 id="link-title">Link a repository</h2>
        <div class="form-grid">
          <Field id="gh-installation" label="Installation id" hint="From the App's installation page URL.">
            <input id="gh-installation" type="number" min={1} required aria-describedby="gh-installation-hint" value={installation} onInput={(e) => setInstallation(e.currentTarget.value)} />
          </Field>
          <Field id="gh-repository" label="Repository" hint="owner/name">
            <input id="gh-repository" type="text" required pattern="[^/\s]+/[^/\s]+" aria-describedby="gh-repository-hint" value={repository} onInput={(e) => setRepository(e.currentTarget.value)} />
          </Field>
          <Field id="gh-branch" label="Base branch">
            <input id="gh-branch" type="text" value={branch} onInput={(e) => setBranch(e.currentTarget.value)} />
          </Field>
          <Field id="gh-config" label="Config file">
            <input id="gh-config" type="text" value={configPath} onInput={(e) => setConfigPath(e.currentTarget.value)} />
          </Field>
        </div>
        <ErrorNotice error={request.error} title="Not linked" />
        <button type="submit" disabled={request.busy}>
          {request.busy ? 'Linking…' : 'Link repository'}
        </button>
      </form>
      <ErrorNotice error={list.error} title="Links unavailable" />
      {list.loading && !list.data ? <Loading what="links" /> : null}
      {list.data && list.data.length === 0 ? <p>No repository linked yet.</p> : null}
      {list.data && list.data.length > 0 ? (
        <DataTable label="Linked repositories" columns={['Repository', 'Branch', 'Config', 'State', 'Linked']} actions>
          {list.data.map((l) => (
            <tr key={l.id}>
              <th scope="row" class="mono">
                {l.repository}
              </th>
              <td>{l.base_branch}</td>
              <td class="mono">{l.config_path}</td>
              <td>
                {l.enabled ? 'enabled' : 'disabled'}
                {l.disabled_reason ? <div class="muted">{l.disabled_reason}</div> : null}
              </td>
              <td>{formatDate(l.created_at)}</td>
              <td>
                <button type="button" class="small danger" onClick={() => void unlink(l)} aria-label={`Unlink ${l.repository}`}>
                  Unlink
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </>
  );
}
