/** The glossary: locked terms (translated one way) and forbidden ones, which the glossary gate enforces. */
import { useState } from 'preact/hooks';
import type { GlossaryTerm } from '../../../../src/client/types.js';
import { DataTable, ErrorNotice, FormActions, InputField, Loading, ProjectPage } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { localeDirection } from '../format.js';
import { useLoad, useRequest } from '../hooks.js';

export function GlossaryPage() {
  return (
    <ProjectPage
      title="Glossary"
      ability="read"
      intro={
        <p>
          A <strong>locked</strong> term must appear as the glossary translates it (or unchanged, for a name with no translation); a <strong>forbidden</strong> term must
          not appear at all. The glossary gate refuses translations that break either rule, and changing a term marks the translations it touches for retranslation.
        </p>
      }
    >
      <Glossary />
    </ProjectPage>
  );
}

function Glossary() {
  const { client, can } = useProject();
  const { announce } = useAccount();
  const data = useLoad(async () => {
    const [terms, project] = await Promise.all([client.glossary(), client.project()]);
    return { terms, locales: project.target_locales };
  }, [client]);
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<string | undefined>();
  const request = useRequest();

  if (data.loading && !data.data) return <Loading what="the glossary" />;
  if (!data.data) return <ErrorNotice error={data.error} title="Glossary unavailable" />;
  const { terms, locales } = data.data;
  const needle = filter.trim().toLowerCase();
  const shown = needle ? terms.filter((t) => t.term.toLowerCase().includes(needle) || Object.values(t.translations).some((v) => v.toLowerCase().includes(needle))) : terms;

  const replace = (term: GlossaryTerm, removed = false) => {
    const rest = terms.filter((t) => t.id !== term.id);
    data.set({ locales, terms: removed ? rest : [...rest, term].sort((a, b) => a.term.localeCompare(b.term)) });
  };

  const remove = async (term: GlossaryTerm) => {
    if (!window.confirm(`Delete the glossary term "${term.term}"?`)) return;
    await request.attempt(async () => {
      await client.removeGlossaryTerm(term.id);
      replace(term, true);
      announce(`Deleted ${term.term}.`);
    });
  };

  return (
    <>
      {can('write') ? (
        <details class="card">
          <summary>Add a term</summary>
          <TermForm
            locales={locales}
            onSaved={(term) => {
              replace(term);
              announce(`Added ${term.term}.`);
            }}
          />
        </details>
      ) : null}
      <div class="filters">
        <InputField id="glossary-filter" label="Find a term" fieldClass="grow" type="search" value={filter} onValue={setFilter} />
      </div>
      <ErrorNotice error={request.error} title="Not done" />
      {shown.length === 0 ? <p>{terms.length === 0 ? 'No terms yet.' : 'No term matches.'}</p> : null}
      {shown.length > 0 ? (
        <DataTable label="Glossary terms" columns={['Term', 'Kind', 'Translations', 'Notes']} actions>
          {shown.map((t) =>
            editing === t.id ? (
              <tr key={t.id}>
                <td colSpan={5}>
                  <TermForm
                    locales={locales}
                    term={t}
                    onSaved={(term) => {
                      replace(term);
                      setEditing(undefined);
                      announce(`Saved ${term.term}.`);
                    }}
                    onCancel={() => setEditing(undefined)}
                  />
                </td>
              </tr>
            ) : (
              <tr key={t.id}>
                <th scope="row">
                  {t.term}
                  {t.case_sensitive ? <span class="muted"> (case-sensitive)</span> : null}
                </th>
                <td>{t.forbidden ? <span class="badge state-held">forbidden</span> : <span class="badge state-human">locked</span>}</td>
                <td>
                  {Object.entries(t.translations).length === 0
                    ? '—'
                    : Object.entries(t.translations).map(([tag, text]) => (
                        <span key={tag} class="term-translation">
                          {tag}:{' '}
                          <span lang={tag} dir={localeDirection(tag)}>
                            {text}
                          </span>
                        </span>
                      ))}
                </td>
                <td>{t.notes ?? ''}</td>
                <td class="row-actions">
                  {can('write') ? (
                    <>
                      <button type="button" class="small secondary" onClick={() => setEditing(t.id)} aria-label={`Edit ${t.term}`}>
                        Edit
                      </button>
                      <button type="button" class="small danger" onClick={() => void remove(t)} aria-label={`Delete ${t.term}`}>
                        Delete
                      </button>
                    </>
                  ) : null}
                </td>
              </tr>
            ),
          )}
        </DataTable>
      ) : null}
    </>
  );
}

function TermForm(props: { locales: string[]; term?: GlossaryTerm; onSaved: (term: GlossaryTerm) => void; onCancel?: () => void }) {
  const { client } = useProject();
  const prefix = props.term ? `term-${props.term.id}` : 'term-new';
  const [term, setTerm] = useState(props.term?.term ?? '');
  const [forbidden, setForbidden] = useState(props.term?.forbidden ?? false);
  const [caseSensitive, setCaseSensitive] = useState(props.term?.case_sensitive ?? false);
  const [notes, setNotes] = useState(props.term?.notes ?? '');
  const [translations, setTranslations] = useState<Record<string, string>>(props.term?.translations ?? {});
  const request = useRequest();

  const submit = (event: Event) => {
    event.preventDefault();
    const cleaned = Object.fromEntries(Object.entries(translations).filter(([, v]) => v.trim() !== ''));
    return request.submit(async () => {
      const input = { term: term.trim(), translations: cleaned, forbidden, case_sensitive: caseSensitive };
      const saved = props.term
        ? await client.updateGlossaryTerm(props.term.id, { ...input, notes: notes.trim() || null })
        : await client.addGlossaryTerm({ ...input, ...(notes.trim() ? { notes: notes.trim() } : {}) });
      props.onSaved(saved);
      if (!props.term) {
        setTerm('');
        setTranslations({});
        setNotes('');
      }
    });
  };

  return (
    <form class="form" onSubmit={(e) => void submit(e)} aria-label={props.term ? `Edit ${props.term.term}` : 'New glossary term'}>
      <div class="form-row">
        <InputField id={`${prefix}-term`} label="Term (source language)" type="text" required value={term} onValue={setTerm} />
        <div class="checks">
          <label>
            <input type="checkbox" checked={forbidden} onChange={(e) => setForbidden(e.currentTarget.checked)} /> Forbidden
          </label>
          <label>
            <input type="checkbox" checked={caseSensitive} onChange={(e) => setCaseSensitive(e.currentTarget.checked)} /> Case-sensitive
          </label>
        </div>
      </div>
      <fieldset>
        <legend>{forbidden ? 'Forbidden translations (also refused)' : 'Required translation per language (empty: keep the term as is)'}</legend>
        <div class="form-grid">
          {props.locales.map((tag) => (
            <InputField
              key={tag}
              id={`${prefix}-${tag}`}
              label={tag}
              type="text"
              lang={tag}
              dir={localeDirection(tag)}
              value={translations[tag] ?? ''}
              onValue={(value) => setTranslations((t) => ({ ...t, [tag]: value }))}
            />
          ))}
        </div>
      </fieldset>
      <InputField id={`${prefix}-notes`} label="Notes" type="text" value={notes} onValue={setNotes} />
      <ErrorNotice error={request.error} title="Not saved" />
      <FormActions busy={request.busy} label={props.term ? 'Save term' : 'Add term'} onCancel={props.onCancel} />
    </form>
  );
}
