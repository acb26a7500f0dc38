/**
 * Keys and translations: a grid per locale, filtered and paginated by the service (so 100,000 keys never load at
 * once), beside the editor of the selected key.
 */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import type { GlossaryTerm, KeyPage, KeyRow, KeyState } from '../../../../src/client/types.js';
import { DataTable, ErrorNotice, Field, Loading, NoDownloadNote, Pager, ProjectPage, StateBadge } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatNumber, localeDirection, localeLabel } from '../format.js';
import { useCursorPages, useDebounced, useLoad } from '../hooks.js';
import { projectHref, replaceHash } from '../router.js';
import { Editor, ShortcutHelp } from './editor.js';

const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 350;
const STATES: { value: KeyState | ''; label: string }[] = [
  { value: '', label: 'Any state' },
  { value: 'missing', label: 'Missing' },
  { value: 'held', label: 'Held for review' },
  { value: 'flagged', label: 'Flagged' },
  { value: 'human', label: 'Human (written or approved)' },
  { value: 'machine', label: 'Machine' },
];
const isKeyState = (value: string | null): value is KeyState => STATES.some((s) => s.value !== '' && s.value === value);

export function KeysPage(props: { query: URLSearchParams }) {
  return (
    <ProjectPage title="Keys and translations" ability="read">
      <KeysLoader query={props.query} />
    </ProjectPage>
  );
}

/** The locales and files the filters offer, and the glossary the editor shows; then the grid. */
function KeysLoader(props: { query: URLSearchParams }) {
  const { client, projectId } = useProject();
  const setup = useLoad(async () => {
    const [project, files, glossary] = await Promise.all([client.project(), client.files(), client.glossary().catch(() => [] as GlossaryTerm[])]);
    return { locales: project.target_locales, files: files.map((f) => f.path), glossary };
  }, [client]);
  if (setup.loading && !setup.data) return <Loading what="keys" />;
  if (!setup.data) return <ErrorNotice error={setup.error} title="Keys unavailable" />;
  if (setup.data.locales.length === 0) {
    return (
      <p>
        This project has no target language yet. <a href={projectHref(projectId, 'languages')}>Add one</a> first.
      </p>
    );
  }
  return <KeysGrid query={props.query} locales={setup.data.locales} files={setup.data.files} glossary={setup.data.glossary} />;
}

function KeysGrid(props: { query: URLSearchParams; locales: string[]; files: string[]; glossary: GlossaryTerm[] }) {
  const { client, projectId } = useProject();
  const { announce } = useAccount();
  const initialLocale = props.query.get('locale');
  const [locale, setLocale] = useState(initialLocale && props.locales.includes(initialLocale) ? initialLocale : (props.locales[0] as string));
  const initialState = props.query.get('state');
  const [state, setState] = useState<KeyState | ''>(isKeyState(initialState) ? initialState : '');
  const [q, setQ] = useState(props.query.get('q') ?? '');
  const [path, setPath] = useState(props.query.get('path') ?? '');
  const search = useDebounced(q.trim(), SEARCH_DELAY_MS);

  const filterKey = JSON.stringify([locale, state, search, path]);
  const paging = useCursorPages(filterKey);
  const { cursor } = paging;
  const pageIndex = paging.page - 1;
  const pageKey = `${filterKey}#${pageIndex}`;
  const [selection, setSelection] = useState<{ page: string; index: number } | undefined>();
  const selected = selection?.page === pageKey ? selection.index : undefined;
  const setSelected = (index: number | undefined) => setSelection(index === undefined ? undefined : { page: pageKey, index });

  useEffect(() => {
    replaceHash(projectHref(projectId, 'keys', undefined, { locale, state, q: search, path }));
  }, [locale, state, search, path, projectId]);

  const page = useLoad<KeyPage>(
    () => client.keys({ locale, ...(state ? { state } : {}), ...(search ? { q: search } : {}), ...(path ? { path } : {}), ...(cursor ? { cursor } : {}), limit: PAGE_SIZE }),
    [client, filterKey, pageIndex, cursor],
  );
  const items = page.data?.items ?? [];
  const row = selected !== undefined ? items[selected] : undefined;

  // Said once per page the service answers, not after each save on it (which would drown the "Saved").
  const total = page.loading ? undefined : page.data?.total;
  useEffect(() => {
    if (total !== undefined) announce(`${formatNumber(total)} keys match. Page ${pageIndex + 1}.`);
  }, [total, pageKey, pageIndex, announce]);

  const move = useCallback(
    (delta: 1 | -1) => {
      if (items.length === 0) return;
      const next = selected === undefined ? (delta === 1 ? 0 : items.length - 1) : selected + delta;
      if (next < 0 || next >= items.length) {
        announce(delta === 1 ? 'Last key on this page: use Next page.' : 'First key on this page.');
        return;
      }
      setSelected(next);
    },
    [items.length, selected, announce, pageKey],
  );

  // Alt+ArrowDown / Alt+ArrowUp move through the rows wherever the focus is on this page.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        move(event.key === 'ArrowDown' ? 1 : -1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [move]);

  const replaceRow = (index: number, updated: KeyRow) => {
    if (!page.data) return;
    page.set({ ...page.data, items: page.data.items.map((r, i) => (i === index ? updated : r)) });
  };

  const first = pageIndex * PAGE_SIZE + 1;
  const summary = page.data ? (page.data.total === 0 ? 'no keys' : `${formatNumber(first)}–${formatNumber(first + items.length - 1)} of ${formatNumber(page.data.total)}`) : undefined;
  const dir = localeDirection(locale);
  const filters = useMemo(
    () => (
      <form class="filters" role="search" aria-label="Filter keys" onSubmit={(e) => e.preventDefault()}>
        <Field id="keys-locale" label="Language">
          <select id="keys-locale" value={locale} onChange={(e) => setLocale(e.currentTarget.value)}>
            {props.locales.map((l) => (
              <option key={l} value={l}>
                {localeLabel(l)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="keys-state" label="State">
          <select id="keys-state" value={state} onChange={(e) => setState(e.currentTarget.value as KeyState | '')}>
            {STATES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="keys-search" label="Search" class="grow">
          <input id="keys-search" type="search" placeholder="Key, source or translation" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        </Field>
        <Field id="keys-file" label="Source file">
          <select id="keys-file" value={path} onChange={(e) => setPath(e.currentTarget.value)}>
            <option value="">All files</option>
            {props.files.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </Field>
      </form>
    ),
    [locale, state, q, path, props.locales, props.files],
  );

  return (
    <>
      {filters}
      <div class="keys-layout">
        <section class="keys-list" aria-labelledby="keys-list-title">
          <h2 id="keys-list-title" class="visually-hidden">
            Keys
          </h2>
          <ErrorNotice error={page.error} title="Keys unavailable" />
          {page.loading && !page.data ? <Loading what="keys" /> : null}
          {page.data ? (
            items.length === 0 ? (
              <p>No keys match these filters.</p>
            ) : (
              <DataTable label={`Keys in ${locale}`} class="keys-table" busy={page.loading} columns={['Key', 'Source', 'Translation', 'State']}>
                {items.map((r, i) => (
                  <tr key={`${r.path}\u0000${r.key}`} class={i === selected ? 'selected' : undefined} onClick={() => setSelected(i)}>
                    <td>
                      <button type="button" class="row-button mono" aria-current={i === selected ? 'true' : undefined} onClick={() => setSelected(i)}>
                        {r.key}
                      </button>
                    </td>
                    <td class="clip">{r.source_plurals ? (r.source_plurals.other ?? r.source) : r.source}</td>
                    <td class="clip" lang={locale} dir={dir}>
                      {r.translation?.text ?? r.held?.text ?? ''}
                    </td>
                    <td>
                      <StateBadge state={r.state} />
                    </td>
                  </tr>
                ))}
              </DataTable>
            )
          ) : null}
          <Pager label="Key pages" pages={paging} next={page.data?.next_cursor} summary={summary} />
        </section>
        {row && selected !== undefined ? (
          <Editor
            key={`${row.path}\u0000${row.key}\u0000${locale}`}
            row={row}
            locale={locale}
            glossary={props.glossary}
            position={`key ${formatNumber(first + selected)} of ${formatNumber(page.data?.total ?? 0)}`}
            onChanged={(updated) => replaceRow(selected, updated)}
            onMove={move}
          />
        ) : (
          <section class="editor card editor-empty" aria-labelledby="editor-empty-title">
            <h2 id="editor-empty-title" class="h-small">
              Editor
            </h2>
            <p>Choose a key to translate it. The gates check your text as you type.</p>
            <ShortcutHelp />
          </section>
        )}
      </div>
      <NoDownloadNote />
    </>
  );
}
