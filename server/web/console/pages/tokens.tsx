/** API tokens of the project: mint (the secret is shown once), list, revoke. The free plan cannot mint them. */
import { useState } from 'preact/hooks';
import type { Token } from '../../../../src/client/types.js';
import { DataTable, ErrorNotice, InputField, Loading, Notice, ProjectPage, SecretOnce } from '../components.js';
import { useAccount, useProject, type Ability } from '../context.js';
import { formatDate } from '../format.js';
import { useLoad, useRequest } from '../hooks.js';

const ABILITIES: { ability: Ability; what: string }[] = [
  { ability: 'push', what: 'upload source files' },
  { ability: 'pull', what: 'download translations' },
  { ability: 'read', what: 'read project data, batches, catalogs' },
  { ability: 'write', what: 'edit translations, glossary, keys, review' },
  { ability: 'manage', what: 'tokens, webhooks, languages, members' },
];
const DEPLOY: readonly Ability[] = ['push', 'pull', 'read'];

export function TokensPage() {
  return (
    <ProjectPage
      title="API tokens"
      ability="manage"
      intro={
        <p>
          A token lets a machine (CI, the CLI, the GitHub Action, a script) act on this project with the abilities it carries. The deploy set (push, pull, read) is the
          least a CI job that moves files needs.
        </p>
      }
    >
      <Tokens />
    </ProjectPage>
  );
}

function Tokens() {
  const { client, organisation } = useProject();
  const { announce } = useAccount();
  const list = useLoad(() => client.tokens(), [client]);
  const canMint = organisation?.can_mint_tokens ?? true;
  const [name, setName] = useState('');
  const [abilities, setAbilities] = useState<ReadonlySet<Ability>>(new Set(DEPLOY));
  const [days, setDays] = useState('');
  const request = useRequest();
  const [minted, setMinted] = useState<Token & { secret: string }>();

  const mint = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      setMinted(undefined);
      const token = await client.createToken({ name: name.trim(), abilities: ABILITIES.map((a) => a.ability).filter((a) => abilities.has(a)), ...(days ? { expires_in_days: Number(days) } : {}) });
      setMinted(token);
      setName('');
      announce(`Token ${token.name} created. Copy its secret now.`);
      list.reload();
    });
  };

  const revoke = async (token: Token) => {
    if (!window.confirm(`Revoke the token ${token.name} (${token.prefix}…)? Whatever uses it stops working at once.`)) return;
    await request.attempt(async () => {
      await client.revokeToken(token.id);
      announce(`Token ${token.name} revoked.`);
      list.reload();
    });
  };

  const toggle = (ability: Ability) =>
    setAbilities((current) => {
      const next = new Set(current);
      if (next.has(ability)) next.delete(ability);
      else next.add(ability);
      return next;
    });

  return (
    <>
      {!canMint ? (
        <Notice kind="warning">
          <p>
            <strong>Your organisation is on the {organisation?.plan ?? 'free'} plan, which cannot mint API tokens</strong> (the API answers <code>403 plan_forbids_tokens</code>
            ). API tokens need the Starter plan or above. People still work here in the console, on every plan; for CI, ask for an upgrade.
          </p>
        </Notice>
      ) : null}
      <form class="card form" onSubmit={(e) => void mint(e)} aria-labelledby="mint-title">
        <h2 id="mint-title">Mint a token</h2>
        <InputField
          id="token-name"
          label="Name"
          hint="What uses it, e.g. “GitHub Actions, web repo”."
          type="text"
          required
          maxLength={100}
          value={name}
          onValue={setName}
          disabled={!canMint}
        />
        <fieldset disabled={!canMint}>
          <legend>Abilities</legend>
          {ABILITIES.map((a) => (
            <label key={a.ability} class="check">
              <input type="checkbox" checked={abilities.has(a.ability)} onChange={() => toggle(a.ability)} /> <strong>{a.ability}</strong>: {a.what}
            </label>
          ))}
        </fieldset>
        <InputField id="token-days" label="Expires after (days, optional)" type="number" min={1} max={3650} class="narrow" value={days} onValue={setDays} disabled={!canMint} />
        <ErrorNotice error={request.error} title="No token" />
        <button type="submit" disabled={request.busy || !canMint || abilities.size === 0}>
          {request.busy ? 'Minting…' : 'Mint token'}
        </button>
      </form>
      {minted ? <SecretOnce label="Token secret" value={minted.secret} /> : null}
      <ErrorNotice error={list.error} title="Tokens unavailable" />
      {list.loading && !list.data ? <Loading what="tokens" /> : null}
      {list.data && list.data.length === 0 ? <p>No tokens yet.</p> : null}
      {list.data && list.data.length > 0 ? (
        <DataTable label="Tokens" columns={['Name', 'Kind', 'Starts with', 'Abilities', 'Last used', 'Expires']} actions>
          {list.data.map((t) => (
            <tr key={t.id} class={t.revoked_at ? 'revoked' : undefined}>
              <th scope="row">
                {t.name}
                {t.revoked_at ? <span class="muted"> (revoked {formatDate(t.revoked_at)})</span> : null}
              </th>
              <td>{t.kind === 'session' ? 'console session' : 'API'}</td>
              <td class="mono">{t.prefix}…</td>
              <td>{t.abilities.join(', ')}</td>
              <td>{formatDate(t.last_used_at)}</td>
              <td>{t.expires_at ? formatDate(t.expires_at) : 'never'}</td>
              <td>
                {!t.revoked_at ? (
                  <button type="button" class="small danger" onClick={() => void revoke(t)} aria-label={`Revoke ${t.name}`}>
                    Revoke
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </>
  );
}
