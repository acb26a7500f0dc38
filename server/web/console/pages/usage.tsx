/** Usage: the word allowance of the period and the words each batch reserved, spent and returned. */
import { DataTable, ErrorNotice, Loading, Pager, ProgressBar, ProjectPage } from '../components.js';
import { useProject } from '../context.js';
import { formatDate, formatNumber } from '../format.js';
import { useCursorPages, useLoad } from '../hooks.js';
import { BatchLink, BatchStatus } from './batches.js';

const PAGE = 50;

export function UsagePage() {
  return (
    <ProjectPage
      title="Usage"
      ability="read"
      intro={
        <p>Words are counted in the source text, once per target language. Unchanged keys and exact translation-memory matches are free; cancelled and failed rows give their words back.</p>
      }
    >
      <Usage />
    </ProjectPage>
  );
}

function Usage() {
  const { client } = useProject();
  const project = useLoad(() => client.project(), [client]);
  const paging = useCursorPages();
  const { cursor } = paging;
  const batches = useLoad(() => client.batchPage({ limit: PAGE, ...(cursor ? { cursor } : {}) }), [client, cursor]);

  const allowance = project.data?.allowance;
  const used = allowance ? Math.max(0, allowance.words_per_month - allowance.words_remaining) : 0;
  const pageSpent = (batches.data?.items ?? []).reduce((n, b) => n + b.words.spent, 0);

  return (
    <>
      <section class="card" aria-labelledby="usage-allowance">
        <h2 id="usage-allowance">Allowance</h2>
        <ErrorNotice error={project.error} title="Allowance unavailable" />
        {project.loading && !project.data ? <Loading what="the allowance" /> : null}
        {allowance && project.data ? (
          <>
            <ProgressBar
              label="Words used of the monthly allowance"
              value={used}
              max={allowance.unlimited ? Math.max(used, 1) : allowance.words_per_month}
              tone={!allowance.unlimited && allowance.words_remaining === 0 ? 'bad' : 'ok'}
              text={allowance.unlimited ? `${formatNumber(used)} words used (no word limit)` : `${formatNumber(used)} of ${formatNumber(allowance.words_per_month)} words used`}
            />
            <dl class="facts inline">
              <dt>Plan</dt>
              <dd>
                {project.data.organisation.plan} ({project.data.organisation.name})
              </dd>
              <dt>Words left</dt>
              <dd>{allowance.unlimited ? 'no limit' : formatNumber(allowance.words_remaining)}</dd>
              <dt>Period</dt>
              <dd>
                {formatDate(allowance.period_start)} to {formatDate(allowance.period_end)}
              </dd>
            </dl>
          </>
        ) : null}
      </section>
      <section class="card" aria-labelledby="usage-batches">
        <h2 id="usage-batches">Words per batch</h2>
        <ErrorNotice error={batches.error} title="Batches unavailable" />
        {batches.loading && !batches.data ? <Loading what="batches" /> : null}
        {batches.data && batches.data.items.length === 0 ? <p>No batches yet.</p> : null}
        {batches.data && batches.data.items.length > 0 ? (
          <DataTable
            label="Words per batch"
            columns={['Batch', 'Created', 'Status', 'File', { label: 'Reserved', num: true }, { label: 'Spent', num: true }, { label: 'Returned', num: true }]}
            foot={
              <tr>
                <th scope="row" colSpan={5}>
                  Spent by the batches on this page
                </th>
                <td class="num">{formatNumber(pageSpent)}</td>
                <td />
              </tr>
            }
          >
            {batches.data.items.map((b) => (
              <tr key={b.id}>
                <td>
                  <BatchLink id={b.id} />
                </td>
                <td>{formatDate(b.created_at)}</td>
                <td>
                  <BatchStatus status={b.status} />
                </td>
                <td>{b.path ?? '—'}</td>
                <td class="num">{formatNumber(b.words.reserved)}</td>
                <td class="num">{formatNumber(b.words.spent)}</td>
                <td class="num">{formatNumber(b.words.refunded)}</td>
              </tr>
            ))}
          </DataTable>
        ) : null}
        <Pager label="Batch pages" pages={paging} next={batches.data?.next_cursor} />
      </section>
    </>
  );
}
