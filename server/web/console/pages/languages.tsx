/** The project's languages: the source and the targets, added and removed (BCP-47 checked here first, then by the service). */
import { useState } from 'preact/hooks';
import type { AddedLanguage, Language } from '../../../../src/client/types.js';
import { checkLocale } from '../../../../src/core/locales/locales.js';
import { DataTable, ErrorNotice, Field, Loading, ProjectPage } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatDate, localeDirection } from '../format.js';
import { useLoad, useRequest } from '../hooks.js';
import { BatchLink } from './batches.js';

export function LanguagesPage() {
  return (
    <ProjectPage title="Languages" ability="read" intro={<p>Adding a target language queues one batch translating every existing key into it. Keys still without a translation are translated with <code>parlance translate-missing</code> (or <code>POST /v1/translate-missing</code>).</p>}>
      <Languages />
    </ProjectPage>
  );
}

function Languages() {
  const { client, can } = useProject();
  const { announce } = useAccount();
  const list = useLoad(() => client.languages(), [client]);
  const [tag, setTag] = useState('');
  const [added, setAdded] = useState<AddedLanguage | undefined>(undefined);
  const request = useRequest();
  const check = tag.trim() ? checkLocale(tag) : undefined;

  const add = async (event: Event) => {
    event.preventDefault();
    if (!check?.ok) return;
    await request.submit(async () => {
      const result = await client.addLanguage(check.tag);
      const { batch: _batch, batch_problem: _problem, ...language } = result;
      list.set([...(list.data ?? []).filter((l) => l.tag !== language.tag), language]);
      setTag('');
      setAdded(result);
      announce(`Added ${language.tag}.${result.batch ? ` Translating its existing keys in batch ${result.batch.id}.` : ''}`);
    });
  };

  const remove = async (language: Language) => {
    if (!window.confirm(`Remove ${language.tag}? Its translations stop being served and translated.`)) return;
    await request.attempt(async () => {
      await client.removeLanguage(language.tag);
      list.set((list.data ?? []).filter((l) => l.tag !== language.tag));
      announce(`Removed ${language.tag}.`);
    });
  };

  return (
    <>
      {can('manage') ? (
        <form class="card form inline-form" onSubmit={(e) => void add(e)}>
          <Field id="language-tag" label="Add a target language" hint="A BCP-47 tag such as de, pt-BR, zh-Hant or ar.">
            <input
              id="language-tag"
              type="text"
              class="narrow"
              aria-invalid={check !== undefined && !check.ok}
              aria-describedby={`language-tag-hint${check && !check.ok ? ' language-tag-error' : ''}`}
              value={tag}
              onInput={(e) => setTag(e.currentTarget.value)}
            />
          </Field>
          {check && !check.ok ? (
            <p id="language-tag-error" class="field-error">
              {check.message}
            </p>
          ) : null}
          {check?.ok && !check.known ? <p class="hint">{check.tag} is well formed but not in the CLDR list; the service may still accept it.</p> : null}
          <button type="submit" disabled={request.busy || !check?.ok}>
            {request.busy ? 'Adding…' : 'Add language'}
          </button>
        </form>
      ) : (
        <p class="hint">Adding and removing languages needs the manage ability.</p>
      )}
      {added ? <AddedNotice added={added} /> : null}
      <ErrorNotice error={request.error ?? list.error} title="Languages" />
      {list.loading && !list.data ? <Loading what="languages" /> : null}
      {list.data ? (
        <DataTable label="Languages" columns={['Tag', 'Name', 'Role', 'Direction', 'Added']} actions>
          {list.data.map((l) => (
            <tr key={l.tag}>
              <th scope="row" class="mono">
                {l.tag}
              </th>
              <td>
                {l.name ?? '—'}
                {!l.known ? <span class="muted"> (not in CLDR)</span> : null}
              </td>
              <td>{l.role}</td>
              <td>{localeDirection(l.tag) === 'rtl' ? 'right to left' : 'left to right'}</td>
              <td>{formatDate(l.added_at)}</td>
              <td>
                {l.role === 'target' && can('manage') ? (
                  <button type="button" class="small danger" onClick={() => void remove(l)} aria-label={`Remove ${l.tag}`}>
                    Remove
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

/** What became of the existing keys of the language just added: its batch, or why there is none. */
function AddedNotice(props: { added: AddedLanguage }) {
  const { added } = props;
  if (added.batch) {
    return (
      <p class="hint" role="status">
        {added.tag}: {added.batch.rows.total} translation{added.batch.rows.total === 1 ? '' : 's'} queued in batch <BatchLink id={added.batch.id} />.
      </p>
    );
  }
  if (added.batch_problem) {
    return (
      <p class="field-error" role="status">
        {added.tag} was added, but its existing keys were not queued: {added.batch_problem.detail} Run <code>parlance translate-missing --locale {added.tag}</code> once that is settled.
      </p>
    );
  }
  return (
    <p class="hint" role="status">
      {added.tag}: no keys yet; the first push translates them into {added.tag}.
    </p>
  );
}
