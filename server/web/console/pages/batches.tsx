/** Batches: the list, one batch with its live progress and row outcomes, cancel and retry. */
import { useState } from 'preact/hooks';
import type { Batch, BatchStatus as Status, BatchWithRows, Page } from '../../../../src/client/types.js';
import { DataTable, ErrorNotice, GateFailures, Loading, Pager, ProgressBar, ProjectPage } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatDate, formatNumber } from '../format.js';
import { useCursorPages, useLoad, usePoll, useRequest } from '../hooks.js';
import { projectHref } from '../router.js';

const FINAL: ReadonlySet<Status> = new Set(['completed', 'failed', 'cancelled']);
const POLL_MS = 1500;
const ROWS_PAGE = 100;
const LIST_PAGE = 25;

export const isFinal = (batch: Batch) => FINAL.has(batch.status);

export function BatchStatus(props: { status: Status }) {
  return <span class={`badge status-${props.status}`}>{props.status}</span>;
}

/** A batch's id, as the link to its page. */
export function BatchLink(props: { id: string }) {
  const { projectId } = useProject();
  return (
    <a class="mono" href={projectHref(projectId, 'batches', props.id)}>
      {props.id}
    </a>
  );
}

/** Rows finished (done, failed or cancelled) out of all rows; an empty batch is complete. */
export function batchProgress(batch: Batch): { finished: number; total: number } {
  const finished = batch.rows.done + batch.rows.failed + batch.rows.cancelled;
  if (batch.rows.total === 0) return { finished: 1, total: 1 };
  return { finished: isFinal(batch) ? batch.rows.total : Math.min(finished, batch.rows.total), total: batch.rows.total };
}

export function BatchesPage(props: { batchId: string | undefined }) {
  return props.batchId ? (
    <ProjectPage title={`Batch ${props.batchId}`} ability="read">
      <BatchDetail batchId={props.batchId} />
    </ProjectPage>
  ) : (
    <ProjectPage
      title="Batches"
      ability="read"
      intro={
        <p>Every push, retranslation and retry queues a batch. Words are reserved when it is queued and settled when it finishes.</p>
      }
    >
      <BatchList />
    </ProjectPage>
  );
}

function BatchList() {
  const { client } = useProject();
  const [status, setStatus] = useState('');
  const paging = useCursorPages(status);
  const { cursor } = paging;
  const page = useLoad<Page<Batch>>(() => client.batchPage({ limit: LIST_PAGE, ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) }), [client, status, cursor]);

  return (
    <>
      <div class="filters">
        <div class="field">
          <label for="batch-status">Status</label>
          <select id="batch-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">Any status</option>
            {['queued', 'running', 'completed', 'failed', 'cancelled'].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorNotice error={page.error} title="Batches unavailable" />
      {page.loading && !page.data ? <Loading what="batches" /> : null}
      {page.data && page.data.items.length === 0 ? <p>No batches{status ? ` with status ${status}` : ''}.</p> : null}
      {page.data && page.data.items.length > 0 ? (
        <DataTable
          label="Batches"
          columns={[
            'Batch',
            'Status',
            'File',
            { label: 'Keys added / changed', num: true },
            { label: 'Rows done / total', num: true },
            { label: 'Failed', num: true },
            { label: 'Words spent', num: true },
            'Created',
          ]}
        >
          {page.data.items.map((b) => (
            <tr key={b.id}>
              <td>
                <BatchLink id={b.id} />
              </td>
              <td>
                <BatchStatus status={b.status} />
              </td>
              <td>{b.path ?? '—'}</td>
              <td class="num">
                {formatNumber(b.keys.added)} / {formatNumber(b.keys.changed)}
              </td>
              <td class="num">
                {formatNumber(b.rows.done)} / {formatNumber(b.rows.total)}
              </td>
              <td class="num">{formatNumber(b.rows.failed)}</td>
              <td class="num">{formatNumber(b.words.spent)}</td>
              <td>{formatDate(b.created_at)}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <Pager label="Batch pages" pages={paging} next={page.data?.next_cursor} />
    </>
  );
}

function BatchDetail(props: { batchId: string }) {
  const { client, can } = useProject();
  const { announce } = useAccount();
  const request = useRequest();
  const summary = useLoad(() => client.batchWithRows(props.batchId, { limit: 1 }), [client, props.batchId]);
  const batch = summary.data;
  const [rowsVersion, setRowsVersion] = useState(0);

  usePoll(
    async () => {
      const fresh = await client.batchWithRows(props.batchId, { limit: 1 });
      summary.set(fresh);
      if (isFinal(fresh)) {
        announce(`Batch ${fresh.id} ${fresh.status}.`);
        setRowsVersion((v) => v + 1);
      }
    },
    POLL_MS,
    batch !== undefined && !isFinal(batch),
  );

  const act = (action: 'cancel' | 'retry') =>
    request.submit(async () => {
      const updated = action === 'cancel' ? await client.cancelBatch(props.batchId) : await client.retryBatch(props.batchId);
      summary.set({ ...(batch as BatchWithRows), ...updated });
      announce(action === 'cancel' ? 'Batch cancelled; unspent words returned.' : 'Failed rows queued again.');
      setRowsVersion((v) => v + 1);
    });

  if (summary.loading && !batch) return <Loading what="the batch" />;
  if (!batch) return <ErrorNotice error={summary.error} title="Batch unavailable" />;
  return (
    <>
      <BatchSummary batch={batch} />
      <ErrorNotice error={request.error} title="Not done" />
      {can('push') ? (
        <div class="actions">
          {batch.status === 'queued' || batch.status === 'running' ? (
            <button type="button" class="danger" disabled={request.busy} onClick={() => void act('cancel')}>
              Cancel batch
            </button>
          ) : null}
          {batch.status === 'failed' || batch.rows.failed > 0 ? (
            <button type="button" class="secondary" disabled={request.busy} onClick={() => void act('retry')}>
              Retry failed rows
            </button>
          ) : null}
        </div>
      ) : null}
      <BatchRows batchId={batch.id} version={rowsVersion} />
    </>
  );
}

/** Status, counts and the progress bar of one batch. */
export function BatchSummary(props: { batch: Batch }) {
  const { batch } = props;
  const { finished, total } = batchProgress(batch);
  return (
    <section class="card" aria-labelledby={`batch-${batch.id}-title`}>
      <h2 id={`batch-${batch.id}-title`} class="h-small">
        <BatchStatus status={batch.status} /> {batch.path ?? 'Batch'} <span class="muted mono">{batch.id}</span>
      </h2>
      <ProgressBar
        label="Batch progress"
        value={finished}
        max={total}
        tone={batch.status === 'failed' ? 'bad' : batch.rows.failed > 0 ? 'warn' : 'ok'}
        text={batch.rows.total === 0 ? 'Nothing to translate: every key is unchanged (no words charged).' : `${formatNumber(finished)} of ${formatNumber(total)} rows finished`}
      />
      <dl class="facts inline">
        <dt>Keys</dt>
        <dd>
          {formatNumber(batch.keys.added)} added, {formatNumber(batch.keys.changed)} changed, {formatNumber(batch.keys.unchanged)} unchanged, {formatNumber(batch.keys.removed)} removed
        </dd>
        <dt>Rows</dt>
        <dd>
          {formatNumber(batch.rows.done)} done, {formatNumber(batch.rows.failed)} failed, {formatNumber(batch.rows.queued)} queued, {formatNumber(batch.rows.cancelled)} cancelled
        </dd>
        <dt>Outcomes</dt>
        <dd>
          {Object.entries(batch.rows.outcomes)
            .map(([outcome, n]) => `${outcome}: ${formatNumber(n)}`)
            .join(', ') || '—'}
        </dd>
        <dt>Words</dt>
        <dd>
          {formatNumber(batch.words.reserved)} reserved, {formatNumber(batch.words.spent)} spent, {formatNumber(batch.words.refunded)} refunded
        </dd>
        <dt>Times</dt>
        <dd>
          created {formatDate(batch.created_at)}, started {formatDate(batch.started_at)}, finished {formatDate(batch.finished_at)}
        </dd>
      </dl>
      {batch.error ? <p class="bad">{batch.error}</p> : null}
    </section>
  );
}

/** The row outcomes of a batch, page by page, filterable by outcome. */
export function BatchRows(props: { batchId: string; version: number }) {
  const { client } = useProject();
  const [outcome, setOutcome] = useState('');
  const paging = useCursorPages(outcome);
  const { cursor } = paging;
  const page = useLoad(
    () => client.batchWithRows(props.batchId, { limit: ROWS_PAGE, ...(cursor ? { cursor } : {}), ...(outcome ? { outcome } : {}) }),
    [client, props.batchId, outcome, cursor, props.version],
  );
  const rows = page.data?.row_outcomes.items ?? [];
  const outcomes = Object.keys(page.data?.rows.outcomes ?? {});

  return (
    <section class="card" aria-labelledby="rows-title">
      <h2 id="rows-title" class="h-small">
        Row outcomes
      </h2>
      <div class="filters">
        <div class="field">
          <label for="rows-outcome">Outcome</label>
          <select id="rows-outcome" value={outcome} onChange={(e) => setOutcome(e.currentTarget.value)}>
            <option value="">Any outcome</option>
            {outcomes.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorNotice error={page.error} title="Rows unavailable" />
      {page.loading && !page.data ? <Loading what="rows" /> : null}
      {page.data && rows.length === 0 ? <p>No rows{outcome ? ` with outcome ${outcome}` : ''}.</p> : null}
      {rows.length > 0 ? (
        <DataTable label="Row outcomes" class="rows-table" columns={['Key', 'Language', 'Status', 'Outcome', 'Gates', { label: 'Words', num: true }, 'Provider']}>
          {rows.map((r) => (
            <tr key={`${r.path}\u0000${r.key}\u0000${r.locale}`}>
              <td class="mono">
                {r.key}
                {r.line !== null ? <span class="muted"> :{r.line}</span> : null}
              </td>
              <td>{r.locale}</td>
              <td>{r.status}</td>
              <td>
                {r.outcome}
                {r.reason ? <span class="muted"> ({r.reason})</span> : null}
              </td>
              <td>
                {r.gate_outcome ?? '—'}
                <GateFailures failures={r.gate_failures} />
              </td>
              <td class="num">{formatNumber(r.words)}</td>
              <td>{r.provider ?? '—'}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <Pager label="Row pages" pages={paging} next={page.data?.row_outcomes.next_cursor} />
    </section>
  );
}

/** A batch followed until it is final (the upload page): progress bar, then the row outcomes. */
export function BatchLive(props: { initial: Batch }) {
  const { client } = useProject();
  const { announce } = useAccount();
  const [batch, setBatch] = useState<Batch>(props.initial);
  const [error, setError] = useState<unknown>();
  usePoll(
    async () => {
      try {
        const { row_outcomes: _rows, ...fresh } = await client.batchWithRows(batch.id, { limit: 1 });
        setBatch(fresh);
        setError(undefined);
        if (isFinal(fresh)) announce(`Batch ${fresh.status}: ${fresh.rows.done} of ${fresh.rows.total} rows done, ${fresh.rows.failed} failed.`);
      } catch (failure) {
        setError(failure);
      }
    },
    POLL_MS,
    !isFinal(batch),
  );
  return (
    <>
      <BatchSummary batch={batch} />
      <ErrorNotice error={error} title="Progress unavailable" />
      {isFinal(batch) ? <BatchRows batchId={batch.id} version={0} /> : null}
    </>
  );
}
