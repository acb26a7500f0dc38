/**
 * The translation editor for one key in one locale: source with clickable placeholders, notes, context, length budget,
 * glossary terms, the gates run as you type, and save/approve/reject from the keyboard.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { GateFailure, GlossaryTerm, KeyRow, KeyState, ReviewState, TranslationRow } from '../../../../src/client/types.js';
import { containsTerm, termsInSource, termTranslation } from '../../../../src/core/gates/glossary.js';
import { displayLength } from '../../../../src/core/gates/length.js';
import { tokenize } from '../../../../src/core/placeholders.js';
import { pluralCategories } from '../../../../src/core/plurals.js';
import { ErrorNotice, GateFailures, Notice, StateBadge } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { errorCode, errorMessage, formatNumber, localeDirection, refusalFailures } from '../format.js';
import { useDebounced } from '../hooks.js';

const QA_DELAY_MS = 700;

/** What a saved or reviewed translation row makes of the grid's key state. */
export function keyStateOf(state: ReviewState): KeyState {
  if (state === 'human' || state === 'approved') return 'human';
  if (state === 'flagged') return 'flagged';
  if (state === 'held') return 'held';
  if (state === 'rejected') return 'missing';
  return 'machine';
}

export function rowAfter(row: KeyRow, saved: TranslationRow): KeyRow {
  const state = keyStateOf(saved.state);
  return {
    ...row,
    state,
    held: null,
    translation:
      state === 'missing'
        ? null
        : { text: saved.text, plurals: saved.plurals, state: saved.state, origin: saved.origin, failures: saved.failures, updated_at: saved.updated_at },
  };
}

type Forms = Record<string, string>;

interface Check {
  state: 'idle' | 'checking' | 'done' | 'error';
  outcome?: 'passed' | 'flagged' | 'refused';
  failures?: GateFailure[];
  note?: string;
}

export function Editor(props: {
  row: KeyRow;
  locale: string;
  glossary: readonly GlossaryTerm[];
  position: string;
  onChanged: (row: KeyRow) => void;
  onMove: (delta: 1 | -1) => void;
}) {
  const { row, locale } = props;
  const { client, can } = useProject();
  const { announce } = useAccount();
  const canWrite = can('write');
  const plural = row.source_plurals !== null;
  const categories = useMemo(() => (plural ? pluralCategories(locale) : []), [plural, locale]);
  const dir = localeDirection(locale);

  const stored = row.translation ?? row.held;
  const initialText = stored?.text ?? '';
  const initialForms: Forms = useMemo(() => Object.fromEntries(categories.map((c) => [c, stored?.plurals?.[c] ?? ''])), [categories, stored]);
  const [text, setText] = useState(initialText);
  const [forms, setForms] = useState<Forms>(initialForms);
  const dirty = plural ? categories.some((c) => (forms[c] ?? '') !== (initialForms[c] ?? '')) : text !== initialText;

  const [busy, setBusy] = useState<'save' | 'approve' | 'reject' | undefined>();
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState<{ outcome: string; failures: GateFailure[] } | undefined>();
  const [check, setCheck] = useState<Check>({ state: 'idle' });

  const fields = useRef(new Map<string, HTMLTextAreaElement>());
  const lastField = useRef<string>(plural ? (categories[0] ?? 'other') : 'text');
  const pendingCaret = useRef<{ name: string; at: number } | undefined>(undefined);
  const firstField = plural ? (categories[0] ?? 'other') : 'text';

  // The gates, as you type: the proposed text goes to /v1/qa/run once typing pauses.
  const proposal = useDebounced(plural ? JSON.stringify(forms) : text, QA_DELAY_MS);
  useEffect(() => {
    if (!dirty) {
      setCheck({ state: 'idle' });
      return;
    }
    const empty = plural ? categories.every((c) => (forms[c] ?? '').trim() === '') : text.trim() === '';
    if (empty) {
      setCheck({ state: 'idle' });
      return;
    }
    let current = true;
    setCheck((c) => ({ ...c, state: 'checking' }));
    const proposed = { key: row.key, locale, path: row.path, ...(plural ? { plurals: JSON.parse(proposal) as Forms } : { text: proposal }) };
    client
      .qaRun({ rows: [proposed], include_passed: true })
      .then((run) => {
        if (!current) return;
        const item = run.items[0];
        if (item) setCheck({ state: 'done', outcome: item.outcome, failures: item.failures });
        else setCheck({ state: 'done', note: run.not_checked[0]?.reason ?? 'Not checked.' });
      })
      .catch((failure: unknown) => {
        if (current) setCheck({ state: 'error', note: errorMessage(failure) });
      });
    return () => {
      current = false;
    };
    // Only the debounced proposal starts a run; `dirty` and the row are read as they are at that moment.
  }, [proposal]);

  const insert = (token: string) => {
    if (!canWrite) return;
    const name = lastField.current;
    const field = fields.current.get(name);
    const value = plural ? (forms[name] ?? '') : text;
    const start = field?.selectionStart ?? value.length;
    const end = field?.selectionEnd ?? value.length;
    const next = value.slice(0, start) + token + value.slice(end);
    if (plural) setForms((f) => ({ ...f, [name]: next }));
    else setText(next);
    pendingCaret.current = { name, at: start + token.length };
  };
  // The caret goes after the inserted token in the render that shows it, before anything else can be typed:
  // a later frame would move it back over keys typed in between.
  useLayoutEffect(() => {
    const caret = pendingCaret.current;
    if (!caret) return;
    pendingCaret.current = undefined;
    const field = fields.current.get(caret.name);
    field?.focus();
    field?.setSelectionRange(caret.at, caret.at);
  });

  const save = async () => {
    if (!canWrite || busy) return;
    setBusy('save');
    setError(undefined);
    setSaved(undefined);
    try {
      const result = await client.putTranslation({ key: row.key, locale, path: row.path, ...(plural ? { plurals: forms } : { text }) });
      setSaved({ outcome: result.gate_outcome, failures: result.gate_failures as GateFailure[] });
      announce(result.gate_outcome === 'flagged' ? `Saved ${row.key}, flagged: ${result.gate_failures.map((f) => f.reason).join('; ')}` : `Saved ${row.key}.`);
      props.onChanged(rowAfter(row, result.translation));
    } catch (failure) {
      setError(failure);
      announce(errorCode(failure) === 'gate_refused' ? `Refused: ${refusalFailures(failure).map((f) => f.reason).join('; ') || errorMessage(failure)}` : errorMessage(failure));
    } finally {
      setBusy(undefined);
    }
  };

  const review = async (decision: 'approve' | 'reject') => {
    if (!canWrite || busy) return;
    if (decision === 'approve' && dirty) {
      announce('Save or undo your edit first: Approve accepts the stored text.');
      return;
    }
    if (!stored) return;
    setBusy(decision);
    setError(undefined);
    try {
      const result = await client.review({ key: row.key, locale, path: row.path, decision });
      announce(decision === 'approve' ? `Approved ${row.key}.` : `Rejected ${row.key}; the next push translates it again.`);
      props.onChanged(rowAfter(row, result.translation));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(undefined);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const mod = event.ctrlKey || event.metaKey;
    if (mod && event.key === 'Enter') {
      event.preventDefault();
      void (event.shiftKey ? review('approve') : save());
    }
  };

  // A newly selected row puts the cursor in its translation, ready to type.
  useEffect(() => {
    fields.current.get(firstField)?.focus({ preventScroll: false });
  }, [row.key, row.path, locale, firstField]);

  const terms = useMemo(() => {
    const gateTerms = props.glossary.map((t) => ({ term: t.term, caseSensitive: t.case_sensitive, forbidden: t.forbidden, translations: t.translations, notes: t.notes }));
    const source = plural ? Object.values(row.source_plurals ?? {}).join('\n') : row.source;
    return termsInSource(source, gateTerms);
  }, [props.glossary, row.source, row.source_plurals, plural]);

  const budget = row.max_length;
  const textarea = (name: string, label: string, value: string, onValue: (v: string) => void) => {
    const id = `editor-${name}`;
    const length = displayLength(value);
    const over = budget !== null && length > budget;
    return (
      <div class="field" key={name}>
        <label for={id}>{label}</label>
        <textarea
          id={id}
          ref={(el) => {
            if (el) fields.current.set(name, el);
            else fields.current.delete(name);
          }}
          lang={locale}
          dir={dir}
          rows={plural ? 2 : 4}
          readOnly={!canWrite}
          aria-describedby={`${id}-count`}
          aria-invalid={over}
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
          onFocus={() => {
            lastField.current = name;
          }}
        />
        <p id={`${id}-count`} class={over ? 'count over' : 'count'}>
          {budget !== null ? `${formatNumber(length)} of ${formatNumber(budget)} characters${over ? `, over the budget by ${formatNumber(length - budget)}` : ''}` : `${formatNumber(length)} characters`}
        </p>
      </div>
    );
  };

  return (
    <section class="editor card" aria-labelledby="editor-title" onKeyDown={onKeyDown}>
      <div class="editor-head">
        <h2 id="editor-title" class="mono">
          {row.key}
        </h2>
        <StateBadge state={row.state} />
      </div>
      <p class="muted">
        {row.path}
        {row.line !== null ? `:${row.line}` : ''} · {props.position} · pass: {row.pass}
      </p>

      <div class="source-block">
        <h3 class="h-small">Source</h3>
        {plural ? (
          <dl class="forms">
            {Object.entries(row.source_plurals ?? {}).map(([category, form]) => (
              <div key={category}>
                <dt>{category}</dt>
                <dd>
                  <SourceText text={form} onInsert={insert} canInsert={canWrite} />
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <SourceText text={row.source} onInsert={insert} canInsert={canWrite} />
        )}
        {canWrite ? <p class="hint">Placeholders and tags are buttons: choose one to insert it at the cursor.</p> : null}
      </div>

      {row.notes || row.context ? (
        <dl class="facts compact">
          {row.notes ? (
            <>
              <dt>Notes</dt>
              <dd>{row.notes}</dd>
            </>
          ) : null}
          {row.context ? (
            <>
              <dt>Context</dt>
              <dd>{row.context}</dd>
            </>
          ) : null}
        </dl>
      ) : null}

      {terms.length > 0 ? (
        <div class="glossary-hits">
          <h3 class="h-small">Glossary</h3>
          <ul>
            {terms.map((t) => {
              const required = termTranslation(t, locale) ?? t.term;
              const current = plural ? Object.values(forms).join('\n') : text;
              const present = containsTerm(current, t.forbidden ? t.term : required, t.caseSensitive);
              return (
                <li key={t.term}>
                  <strong>{t.term}</strong>{' '}
                  {t.forbidden ? (
                    <span class={present ? 'bad' : 'good'}>forbidden{present ? ': remove it' : ''}</span>
                  ) : (
                    <>
                      → <span lang={locale}>{required}</span> <span class={present ? 'good' : 'muted'}>{present ? '(used)' : '(required)'}</span>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}

      {row.held ? (
        <div class="held">
          <h3 class="h-small">Held for review</h3>
          <p lang={locale} dir={dir} class="candidate">
            {row.held.text}
          </p>
          <GateFailures failures={row.held.failures} />
        </div>
      ) : null}
      {row.translation && row.translation.failures.length > 0 && row.state === 'flagged' ? (
        <div class="held">
          <h3 class="h-small">Flagged</h3>
          <GateFailures failures={row.translation.failures} />
        </div>
      ) : null}

      <div class="target-block">
        <h3 class="h-small">
          Translation ({locale}
          {dir === 'rtl' ? ', right to left' : ''})
        </h3>
        {plural
          ? categories.map((c) => textarea(c, `Form "${c}"`, forms[c] ?? '', (v) => setForms((f) => ({ ...f, [c]: v }))))
          : textarea('text', `Translation of ${row.key}`, text, setText)}
        {budget === null ? <p class="hint">No length budget for this key.</p> : null}
      </div>

      <div class="gate-status" role="status" aria-live="polite">
        {check.state === 'checking' ? <p class="muted">Checking the gates…</p> : null}
        {check.state === 'done' && check.outcome === 'passed' ? <p class="good">Gates: passed.</p> : null}
        {check.state === 'done' && check.outcome && check.outcome !== 'passed' ? (
          <div>
            <p class={check.outcome === 'refused' ? 'bad' : 'warn'}>{check.outcome === 'refused' ? 'Gates: this text would be refused.' : 'Gates: this text would be saved and flagged.'}</p>
            <GateFailures failures={check.failures ?? []} />
          </div>
        ) : null}
        {check.note ? <p class="muted">{check.note}</p> : null}
      </div>

      {error ? (
        <div>
          <ErrorNotice error={error} title={errorCode(error) === 'gate_refused' ? 'Not saved: refused by the gates' : 'Not saved'} />
          <GateFailures failures={refusalFailures(error)} />
        </div>
      ) : null}
      {saved ? (
        <Notice kind={saved.outcome === 'flagged' ? 'warning' : 'success'}>
          <p>{saved.outcome === 'flagged' ? 'Saved, and flagged:' : 'Saved. Machine passes will not overwrite it until the source changes.'}</p>
          <GateFailures failures={saved.failures} />
        </Notice>
      ) : null}

      {canWrite ? (
        <div class="actions">
          <button type="button" onClick={() => void save()} disabled={busy !== undefined || !dirty} aria-keyshortcuts="Control+Enter Meta+Enter">
            {busy === 'save' ? 'Saving…' : 'Save'}
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => void review('approve')}
            disabled={busy !== undefined || !stored || dirty}
            aria-keyshortcuts="Control+Shift+Enter Meta+Shift+Enter"
          >
            {busy === 'approve' ? 'Approving…' : row.held ? 'Approve held text' : 'Approve'}
          </button>
          <button type="button" class="danger" onClick={() => void review('reject')} disabled={busy !== undefined || !stored}>
            {busy === 'reject' ? 'Rejecting…' : 'Reject'}
          </button>
          {dirty ? (
            <button
              type="button"
              class="link-button"
              onClick={() => {
                setText(initialText);
                setForms(initialForms);
              }}
            >
              Undo edit
            </button>
          ) : null}
        </div>
      ) : (
        <p class="hint">Your role can read but not edit translations (the write ability is missing).</p>
      )}
      <div class="nav-row">
        <button type="button" class="secondary small" onClick={() => props.onMove(-1)} aria-keyshortcuts="Alt+ArrowUp">
          ↑ Previous key
        </button>
        <button type="button" class="secondary small" onClick={() => props.onMove(1)} aria-keyshortcuts="Alt+ArrowDown">
          Next key ↓
        </button>
      </div>
      <ShortcutHelp />
    </section>
  );
}

/** The source with its placeholders and tags as buttons that insert them. */
function SourceText(props: { text: string; onInsert: (token: string) => void; canInsert: boolean }) {
  const segments = useMemo(() => tokenize(props.text), [props.text]);
  return (
    <p class="source-text">
      {segments.map((s, i) =>
        s.kind === 'text' ? (
          <span key={i}>{s.value}</span>
        ) : (s.kind === 'placeholder' || s.kind === 'markup') && props.canInsert ? (
          <button key={i} type="button" class={`token token-${s.kind}`} onClick={() => props.onInsert(s.value)} aria-label={`Insert ${s.kind} ${s.value}`}>
            {s.value}
          </button>
        ) : (
          <code key={i} class={`token token-${s.kind}`}>
            {s.value}
          </code>
        ),
      )}
    </p>
  );
}

/** The editor's keys, always on screen. */
export function ShortcutHelp() {
  return (
    <div class="shortcuts" aria-labelledby="shortcuts-title">
      <h3 id="shortcuts-title" class="h-small">
        Keyboard
      </h3>
      <dl>
        <dt>
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> (<kbd>⌘</kbd>+<kbd>Enter</kbd> on a Mac)
        </dt>
        <dd>Save the translation</dd>
        <dt>
          <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>Enter</kbd>
        </dt>
        <dd>Approve the stored or held text</dd>
        <dt>
          <kbd>Alt</kbd>+<kbd>↓</kbd> / <kbd>Alt</kbd>+<kbd>↑</kbd>
        </dt>
        <dd>Next / previous key in the list</dd>
      </dl>
    </div>
  );
}
