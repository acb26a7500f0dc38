/** The console's shared pieces: page headings, notices, progress bars, pagers, once-shown secrets, form fields. */
import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import type { GateFailure, KeyState, ReviewState } from '../../../src/client/types.js';
import { useAccount, useProject, type Ability } from './context.js';
import { errorCode, errorMessage, formatNumber, plural } from './format.js';
import { projectHref } from './router.js';
import type { CursorPages } from './hooks.js';

export function PageHeader(props: { title: string; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      {/* Focused after each navigation, so a screen reader starts at the new page's name. */}
      <h1 id="page-title" tabIndex={-1}>
        {props.title}
      </h1>
      {props.children ? <div class="page-intro">{props.children}</div> : null}
    </header>
  );
}

/** A project page: its header with `intro`, then `children` for those with `ability` (the others are told what is missing). */
export function ProjectPage(props: { title: string; ability: Ability; intro?: ComponentChildren; children: ComponentChildren }) {
  return (
    <>
      <PageHeader title={props.title}>{props.intro}</PageHeader>
      <RequireAbility ability={props.ability}>{props.children}</RequireAbility>
    </>
  );
}

const HINTS: Record<string, string> = {
  ability_missing: 'Ask an owner or admin of the organisation to give you a role with this ability on the project.',
  seats_exhausted: 'Every seat of the plan is taken by a member or a pending invitation. Withdraw a pending invitation or remove a member to free a seat, or move the organisation to a plan with more seats.',
  plan_forbids_tokens: 'API tokens need the Starter plan or above. Until then, people use the console, whose credentials work on every plan.',
  sign_in_limited: 'Too many failed sign-ins: wait for the time given, then try again.',
  allowance_exhausted: 'The words of this period are used up; they renew at the start of the next period.',
};

/** The service's `detail`, as it said it, and what to do about the common refusals. */
export function ErrorNotice(props: { error: unknown; title?: string }) {
  if (props.error === undefined || props.error === null) return null;
  const code = errorCode(props.error);
  const hint = code ? HINTS[code] : undefined;
  return (
    <div class="notice notice-error" role="alert">
      <p>
        <strong>{props.title ?? 'Something went wrong'}:</strong> {errorMessage(props.error)}
        {code ? <span class="code"> ({code})</span> : null}
      </p>
      {hint ? <p class="hint">{hint}</p> : null}
    </div>
  );
}

export function Notice(props: { kind?: 'info' | 'success' | 'warning'; children: ComponentChildren; live?: boolean }) {
  return (
    <div class={`notice notice-${props.kind ?? 'info'}`} role={props.live ? 'status' : undefined}>
      {props.children}
    </div>
  );
}

/** A success notice saying `text`; nothing while there is none. */
export function SuccessNotice(props: { text: string | undefined }) {
  return props.text ? (
    <Notice kind="success">
      <p>{props.text}</p>
    </Notice>
  ) : null;
}

export function Loading(props: { what?: string }) {
  return (
    <p class="loading" role="status">
      Loading{props.what ? ` ${props.what}` : ''}…
    </p>
  );
}

/** A labelled bar with the figures as text too; `aria-valuenow` is the percentage. */
export function ProgressBar(props: { value: number; max: number; label: string; text?: string; tone?: 'ok' | 'warn' | 'bad' }) {
  const pct = props.max > 0 ? Math.min(100, Math.round((props.value / props.max) * 100)) : 0;
  const text = props.text ?? `${formatNumber(props.value)} of ${formatNumber(props.max)} (${pct}%)`;
  return (
    <div class="progress">
      <div
        class={`progress-track tone-${props.tone ?? 'ok'}`}
        role="progressbar"
        aria-label={props.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={text}
      >
        <div class="progress-fill" style={{ width: `${pct}%` }} />
      </div>
      <span class="progress-text">{text}</span>
    </div>
  );
}

/** Next and previous over cursor pages; `next` is the cursor the service gave for the page after this one. */
export function Pager(props: { label: string; pages: CursorPages; next: string | null | undefined; summary?: string | undefined }) {
  const { pages, next } = props;
  const hasPrevious = pages.page > 1;
  // One page and nothing to say about it: no pager.
  if (!hasPrevious && !next && !props.summary) return null;
  return (
    <nav class="pager" aria-label={props.label}>
      <button type="button" onClick={pages.previous} disabled={!hasPrevious}>
        ← Previous
      </button>
      <span class="pager-status">
        Page {pages.page}
        {props.summary ? ` · ${props.summary}` : ''}
      </span>
      <button type="button" onClick={() => pages.next(next)} disabled={!next}>
        Next →
      </button>
    </nav>
  );
}

export function CopyButton(props: { text: string; label: string }) {
  const { announce } = useAccount();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied(true);
      announce('Copied to the clipboard.');
    } catch {
      announce('Copying is not allowed here: select the text and copy it yourself.');
    }
  };
  return (
    // The accessible name keeps the visible word (axe: label-content-name-mismatch), before and after the copy.
    <button type="button" class="secondary" onClick={() => void copy()} aria-label={copied ? `${props.label}: copied` : props.label}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** A secret the service shows once (token, webhook signing secret, invitation link). */
export function SecretOnce(props: { label: string; value: string; note?: string }) {
  const id = `secret-${props.label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div class="notice notice-success secret" role="status">
      <label for={id}>{props.label}</label>
      <div class="secret-row">
        <input id={id} class="mono" type="text" readOnly value={props.value} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={props.value} label={`Copy ${props.label.toLowerCase()}`} />
      </div>
      <p class="hint">{props.note ?? 'Shown only this once: copy it now. The service keeps only a hash.'}</p>
    </div>
  );
}

/** Where translations leave Parlance, in place of a download button (the product has none, on purpose). */
export function NoDownloadNote() {
  const { projectId } = useProject();
  return (
    <aside class="notice notice-info no-download" aria-labelledby="no-download-title">
      <h2 id="no-download-title" class="h-small">
        Getting translations out
      </h2>
      <p>The console has no download button, on purpose: every copy of a translation leaves from the same checked, reviewable source, through</p>
      <ul>
        <li>
          the pull endpoint: <code>curl -H "Authorization: Bearer $PARLANCE_TOKEN" "$PARLANCE_URL/v1/pull?locale=de"</code>
        </li>
        <li>
          the CLI: <code>parlance pull</code>
        </li>
        <li>the GitHub Action, or the GitHub App (one pull request per branch)</li>
        <li>
          a published release on the CDN, or synced to your S3 or Azure storage: see <a href={projectHref(projectId, 'delivery')}>Delivery</a>.
        </li>
      </ul>
    </aside>
  );
}

export function AbilityMissing(props: { ability: Ability }) {
  const { role, abilities } = useProject();
  return (
    <div class="notice notice-warning" role="alert">
      <p>
        <strong>Missing ability: {props.ability}.</strong> Your role on this project is <strong>{role}</strong>, which has {abilities.join(', ') || 'no abilities'}. This page
        needs the <code>{props.ability}</code> ability; the API answers <code>403 ability_missing</code> to your credential here.
      </p>
      <p class="hint">{HINTS.ability_missing}</p>
    </div>
  );
}

/** Renders `children` only with `ability`; otherwise names the missing ability. */
export function RequireAbility(props: { ability: Ability; children: ComponentChildren }) {
  const { can } = useProject();
  return can(props.ability) ? <>{props.children}</> : <AbilityMissing ability={props.ability} />;
}

const STATE_LABELS: Record<KeyState | ReviewState, string> = {
  missing: 'Missing',
  held: 'Held',
  flagged: 'Flagged',
  human: 'Human',
  machine: 'Machine',
  rejected: 'Rejected',
  accepted: 'Machine',
  approved: 'Approved',
};

export function StateBadge(props: { state: KeyState | ReviewState }) {
  return <span class={`badge state-${props.state}`}>{STATE_LABELS[props.state] ?? props.state}</span>;
}

export function GateFailures(props: { failures: readonly GateFailure[]; empty?: string }) {
  if (props.failures.length === 0) return props.empty ? <p class="hint">{props.empty}</p> : null;
  return (
    <ul class="failures">
      {props.failures.map((f, i) => (
        <li key={i}>
          <span class={`badge gate-${f.gate}`}>{f.gate}</span> {f.reason}
          {f.attempt !== undefined ? <span class="muted"> (attempt {f.attempt})</span> : null}
        </li>
      ))}
    </ul>
  );
}

export function Field(props: { id: string; label: string; hint?: string; children: ComponentChildren; class?: string }) {
  return (
    <div class={`field ${props.class ?? ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

/** `Omit` over each member of a union (the input attributes are one per input type) rather than over their common part. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

type InputFieldProps = OmitEach<InputHTMLAttributes<HTMLInputElement>, 'id' | 'label' | 'value' | 'onInput' | 'aria-describedby'> & {
  id: string;
  label: string;
  hint?: string;
  /** A class for the field around the input (`class` goes to the input). */
  fieldClass?: string;
  value: string;
  onValue(value: string): void;
};

/** A `Field` holding one `<input>` by the field's id, described by the hint when there is one; `onValue` gets what is typed. */
export function InputField(props: InputFieldProps) {
  const { label, hint, fieldClass, onValue, ...input } = props;
  return (
    <Field id={props.id} label={label} hint={hint} class={fieldClass}>
      <input {...input} aria-describedby={hint ? `${props.id}-hint` : undefined} onInput={(e) => onValue(e.currentTarget.value)} />
    </Field>
  );
}

/** A save form's submit button ("Saving…" while it is sent) and, with `onCancel`, a Cancel button. */
export function FormActions(props: { busy: boolean; label: string; onCancel?: (() => void) | undefined }) {
  return (
    <div class="actions">
      <button type="submit" disabled={props.busy}>
        {props.busy ? 'Saving…' : props.label}
      </button>
      {props.onCancel ? (
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}

/** A table that scrolls sideways inside its region when the window is narrow (focusable, so the keyboard can scroll it). */
function TableWrap(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" role="region" aria-label={`${props.label} (table)`} tabIndex={0}>
      {props.children}
    </div>
  );
}

/** A column heading: its name, or a figure column whose heading aligns right with its cells. */
export type Column = string | { label: ComponentChildren; num?: boolean };

/**
 * A data table in its scrolling region, every heading scoped to its column. `actions` adds a last column for the row
 * buttons: its heading is read to screen readers only, so the column is still named when they move across a row.
 */
export function DataTable(props: { label: string; columns: readonly Column[]; actions?: boolean; class?: string; busy?: boolean; foot?: ComponentChildren; children: ComponentChildren }) {
  return (
    <TableWrap label={props.label}>
      <table class={props.class} aria-busy={props.busy}>
        <thead>
          <tr>
            {props.columns.map((column, i) =>
              typeof column === 'string' ? (
                <th key={i} scope="col">
                  {column}
                </th>
              ) : (
                <th key={i} scope="col" class={column.num ? 'num' : undefined}>
                  {column.label}
                </th>
              ),
            )}
            {props.actions ? (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
        {props.foot ? <tfoot>{props.foot}</tfoot> : null}
      </table>
    </TableWrap>
  );
}

const logTimes = new Intl.DateTimeFormat('en', { timeStyle: 'medium' });
/** Seconds matter in a sync log, whose lines are often a moment apart. */
const logTime = (iso: string) => (Number.isNaN(Date.parse(iso)) ? iso : logTimes.format(Date.parse(iso)));

/** A job's log (a storage sync's, an integration sync's), folded under its number of lines. */
export function LogLines(props: { log: readonly { at: string; message: string }[] }) {
  return (
    <details>
      <summary>{plural(props.log.length, 'line')}</summary>
      <ol class="attempts">
        {props.log.map((line, i) => (
          <li key={i}>
            <span class="muted">{logTime(line.at)}</span> {line.message}
          </li>
        ))}
      </ol>
    </details>
  );
}
