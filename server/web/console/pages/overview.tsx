/** Project overview: progress per locale, words used against the allowance, recent batches. */
import type { Batch, LocaleProgress } from '../../../../src/client/types.js';
import { DataTable, ErrorNotice, Loading, NoDownloadNote, ProgressBar, ProjectPage } from '../components.js';
import { useProject } from '../context.js';
import { formatDate, formatNumber, localeLabel, percent } from '../format.js';
import { useLoad } from '../hooks.js';
import { projectHref } from '../router.js';
import { BatchLink, BatchStatus } from './batches.js';

export function OverviewPage() {
  const { project } = useProject();
  return (
    <ProjectPage title={`${project.name}: overview`} ability="read">
      <Overview />
    </ProjectPage>
  );
}

function Overview() {
  const { client, projectId } = useProject();
  const data = useLoad(async () => {
    const [project, progress, batches] = await Promise.all([client.project(), client.progress(), client.batchPage({ limit: 5 })]);
    return { project, progress, batches: batches.items };
  }, [client]);

  if (data.loading && !data.data) return <Loading what="the overview" />;
  if (!data.data) return <ErrorNotice error={data.error} title="Overview unavailable" />;
  const { project, progress, batches } = data.data;
  const allowance = project.allowance;
  const used = Math.max(0, allowance.words_per_month - allowance.words_remaining);

  return (
    <>
      <ErrorNotice error={data.error} />
      <div class="two-columns">
        <section class="card" aria-labelledby="facts-title">
          <h2 id="facts-title">Project</h2>
          <dl class="facts">
            <dt>Organisation</dt>
            <dd>
              {project.organisation.name} ({project.organisation.plan} plan)
            </dd>
            <dt>Source language</dt>
            <dd>{localeLabel(project.source_locale)}</dd>
            <dt>Target languages</dt>
            <dd>{project.target_locales.length ? project.target_locales.join(', ') : 'none yet'}</dd>
            <dt>Keys</dt>
            <dd>{formatNumber(progress.keys)}</dd>
          </dl>
        </section>
        <section class="card" aria-labelledby="allowance-title">
          <h2 id="allowance-title">Words this period</h2>
          <ProgressBar
            label="Words used of the monthly allowance"
            value={used}
            max={allowance.unlimited ? Math.max(used, 1) : allowance.words_per_month}
            tone={allowance.unlimited ? 'ok' : allowance.words_remaining === 0 ? 'bad' : used / Math.max(1, allowance.words_per_month) > 0.8 ? 'warn' : 'ok'}
            text={
              allowance.unlimited
                ? `${formatNumber(used)} words used (the ${project.organisation.plan} plan has no word limit)`
                : `${formatNumber(used)} of ${formatNumber(allowance.words_per_month)} words used (${formatNumber(allowance.words_remaining)} left)`
            }
          />
          <p class="hint">
            Period {formatDate(allowance.period_start)} to {formatDate(allowance.period_end)}. Unchanged keys and translation-memory matches cost nothing.{' '}
            <a href={projectHref(projectId, 'usage')}>Usage by batch</a>
          </p>
        </section>
      </div>
      <section class="card" aria-labelledby="progress-title">
        <h2 id="progress-title">Progress by language</h2>
        {progress.locales.length === 0 ? (
          <p>
            No target languages yet. <a href={projectHref(projectId, 'languages')}>Add one</a>.
          </p>
        ) : (
          <>
            <LocaleProgressTable rows={progress.locales} projectId={projectId} />
            {/* For the eye only: the table says the same in figures. */}
            <ul class="legend" aria-hidden="true">
              {['translated', 'flagged', 'held', 'missing'].map((name) => (
                <li key={name}>
                  <span class={`swatch seg-${name}`} /> {name}
                </li>
              ))}
            </ul>
          </>
        )}
        {progress.keys === 0 ? (
          <p>
            No keys yet: <a href={projectHref(projectId, 'upload')}>upload a source file</a>, or push one with <code>parlance push</code>.
          </p>
        ) : null}
      </section>
      <section class="card" aria-labelledby="recent-title">
        <h2 id="recent-title">Recent batches</h2>
        <RecentBatches batches={batches} />
      </section>
      <NoDownloadNote />
    </>
  );
}

function LocaleProgressTable(props: { rows: LocaleProgress[]; projectId: string }) {
  const link = (locale: string, state: string | undefined, n: number) =>
    n > 0 ? <a href={projectHref(props.projectId, 'keys', undefined, { locale, state })}>{formatNumber(n)}</a> : formatNumber(n);
  return (
    <DataTable
      label="Progress by language"
      class="progress-table"
      columns={['Language', 'Progress', { label: 'Translated', num: true }, { label: 'Flagged', num: true }, { label: 'Held', num: true }, { label: 'Missing', num: true }]}
    >
      {props.rows.map((row) => {
        const done = percent(row.translated, row.keys);
        return (
          <tr key={row.locale}>
            <th scope="row">
              <a href={projectHref(props.projectId, 'keys', undefined, { locale: row.locale })}>{localeLabel(row.locale)}</a>
            </th>
            <td>
              <StackedBar row={row} />
              <span class="visually-hidden">{done}% translated</span>
            </td>
            <td class="num">{link(row.locale, undefined, row.translated)}</td>
            <td class="num">{link(row.locale, 'flagged', row.flagged)}</td>
            <td class="num">{link(row.locale, 'held', row.held)}</td>
            <td class="num">{link(row.locale, 'missing', row.missing)}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}

/** One bar per locale: translated, flagged, held, missing (they add up to the keys) side by side; the figures sit in the table beside it. */
function StackedBar(props: { row: LocaleProgress }) {
  const { row } = props;
  const total = Math.max(1, row.keys);
  const parts: [string, number][] = [
    ['translated', row.translated],
    ['flagged', row.flagged],
    ['held', row.held],
    ['missing', row.missing],
  ];
  const translated = percent(row.translated, row.keys);
  return (
    <div
      class="stacked"
      role="progressbar"
      aria-label={`${row.locale} translated`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(translated)}
      aria-valuetext={`${translated}% translated: ${row.translated} of ${row.keys} keys, ${row.flagged} flagged, ${row.held} held, ${row.missing} missing`}
    >
      {parts.map(([name, n]) => (n > 0 ? <span key={name} class={`seg seg-${name}`} style={{ width: `${(n / total) * 100}%` }} /> : null))}
    </div>
  );
}

function RecentBatches(props: { batches: Batch[] }) {
  if (props.batches.length === 0) return <p>No batches yet.</p>;
  return (
    <DataTable label="Recent batches" columns={['Batch', 'Status', 'File', { label: 'Rows', num: true }, { label: 'Words', num: true }, 'Created']}>
      {props.batches.map((b) => (
        <tr key={b.id}>
          <td>
            <BatchLink id={b.id} />
          </td>
          <td>
            <BatchStatus status={b.status} />
          </td>
          <td>{b.path ?? '—'}</td>
          <td class="num">{formatNumber(b.rows.total)}</td>
          <td class="num">{formatNumber(b.words.spent || b.words.reserved)}</td>
          <td>{formatDate(b.created_at)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
