/** The review queue: held rows (refused by the gates) and flagged rows, approved or rejected one by one or in bulk. */
import { useState } from 'preact/hooks';
import type { TranslationRow } from '../../../../src/client/types.js';
import { DataTable, ErrorNotice, GateFailures, Loading, ProjectPage } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatNumber, localeDirection, localeLabel, plural } from '../format.js';
import { useLoad } from '../hooks.js';
import { projectHref } from '../router.js';

const QUEUE_LIMIT = 200;
type Queue = 'held' | 'flagged';
const rowId = (r: TranslationRow) => `${r.path}\u0000${r.key}\u0000${r.locale}`;

export function ReviewPage() {
  return (
    <ProjectPage
      title="Review queue"
      ability="write"
      intro={
        <p>
          <strong>Held</strong> rows were refused by a gate (a placeholder, plural or glossary problem) and are kept out of the files until someone approves them.{' '}
          <strong>Flagged</strong> rows were written but run over their length budget.
        </p>
      }
    >
      <ReviewQueue />
    </ProjectPage>
  );
}

function ReviewQueue() {
  const { client, projectId } = useProject();
  const { announce } = useAccount();
  const [queue, setQueue] = useState<Queue>('held');
  const [locale, setLocale] = useState('');
  const locales = useLoad(async () => (await client.project()).target_locales, [client]);
  const rows = useLoad(() => client.translations({ state: queue, ...(locale ? { locale } : {}), limit: QUEUE_LIMIT }), [client, queue, locale]);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [progress, setProgress] = useState('');

  const items = rows.data ?? [];
  const allChosen = items.length > 0 && items.every((r) => chosen.has(rowId(r)));

  const decide = async (targets: TranslationRow[], decision: 'approve' | 'reject') => {
    if (targets.length === 0) return;
    setBusy(true);
    setError(undefined);
    const done = new Set<string>();
    try {
      for (const [i, r] of targets.entries()) {
        setProgress(`${decision === 'approve' ? 'Approving' : 'Rejecting'} ${i + 1} of ${targets.length}…`);
        await client.review({ key: r.key, locale: r.locale, path: r.path, decision });
        done.add(rowId(r));
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
      setProgress('');
      if (rows.data) rows.set(rows.data.filter((r) => !done.has(rowId(r))));
      setChosen((c) => new Set([...c].filter((id) => !done.has(id))));
      announce(`${plural(done.size, 'row')} ${decision === 'approve' ? 'approved' : 'rejected'}.`);
    }
  };

  const toggle = (id: string) =>
    setChosen((c) => {
      const next = new Set(c);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <>
      <div class="filters">
        <div class="tabs" role="group" aria-label="Queue">
          {(['held', 'flagged'] as const).map((q) => (
            <button
              key={q}
              type="button"
              class={queue === q ? 'tab active' : 'tab'}
              aria-pressed={queue === q}
              onClick={() => {
                setQueue(q);
                setChosen(new Set());
              }}
            >
              {q === 'held' ? 'Held' : 'Flagged'}
            </button>
          ))}
        </div>
        <div class="field">
          <label for="review-locale">Language</label>
          <select id="review-locale" value={locale} onChange={(e) => setLocale(e.currentTarget.value)}>
            <option value="">All languages</option>
            {(locales.data ?? []).map((l) => (
              <option key={l} value={l}>
                {localeLabel(l)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorNotice error={error ?? rows.error} title="Review" />
      {rows.loading && !rows.data ? <Loading what="the queue" /> : null}
      {rows.data && items.length === 0 ? (
        <p>
          Nothing {queue} {locale ? `in ${locale}` : ''} right now. <a href={projectHref(projectId, 'keys')}>Browse all keys</a>.
        </p>
      ) : null}
      {items.length > 0 ? (
        <>
          <div class="bulk-bar" role="group" aria-label="Bulk actions">
            <span>
              {formatNumber(chosen.size)} of {formatNumber(items.length)} chosen
              {items.length >= QUEUE_LIMIT ? ` (the first ${QUEUE_LIMIT})` : ''}
            </span>
            <button type="button" disabled={busy || chosen.size === 0} onClick={() => void decide(items.filter((r) => chosen.has(rowId(r))), 'approve')}>
              Approve chosen
            </button>
            <button type="button" class="danger" disabled={busy || chosen.size === 0} onClick={() => void decide(items.filter((r) => chosen.has(rowId(r))), 'reject')}>
              Reject chosen
            </button>
            <span role="status" class="muted">
              {progress}
            </span>
          </div>
          <DataTable
            label={`${queue} rows`}
            class="review-table"
            busy={busy}
            columns={[
              { label: <input type="checkbox" aria-label="Choose every row" checked={allChosen} onChange={() => setChosen(allChosen ? new Set() : new Set(items.map(rowId)))} /> },
              'Key',
              'Language',
              'Source',
              queue === 'held' ? 'Held text' : 'Translation',
              'Why',
            ]}
            actions
          >
            {items.map((r) => {
              const id = rowId(r);
              return (
                <tr key={id}>
                  <td>
                    <input type="checkbox" aria-label={`Choose ${r.key} (${r.locale})`} checked={chosen.has(id)} onChange={() => toggle(id)} />
                  </td>
                  <td class="mono">
                    <a href={projectHref(projectId, 'keys', undefined, { locale: r.locale, q: r.key, state: queue })}>{r.key}</a>
                  </td>
                  <td>{r.locale}</td>
                  <td>{r.source}</td>
                  <td lang={r.locale} dir={localeDirection(r.locale)}>
                    {r.text}
                  </td>
                  <td>
                    <GateFailures failures={r.failures} empty="No gate failure recorded." />
                  </td>
                  <td class="row-actions">
                    <button type="button" class="small" disabled={busy} onClick={() => void decide([r], 'approve')} aria-label={`Approve ${r.key} (${r.locale})`}>
                      Approve
                    </button>
                    <button type="button" class="small danger" disabled={busy} onClick={() => void decide([r], 'reject')} aria-label={`Reject ${r.key} (${r.locale})`}>
                      Reject
                    </button>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        </>
      ) : null}
    </>
  );
}
