/** Import: bring a project across from another platform (through its API or from its export), follow the import, and read its report. */
import { useState } from 'preact/hooks';
import type { ImportJob, ImportOptionsInput, ImportPlatform } from '../../../../src/client/types.js';
import { DataTable, ErrorNotice, Field, Loading, Notice, Pager, ProgressBar, ProjectPage } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { formatDate, formatNumber, localeLabel, plural } from '../format.js';
import { useCursorPages, useLoad, usePoll, useRequest } from '../hooks.js';
import { projectHref } from '../router.js';

const POLL_MS = 1000;
const LIST_PAGE = 20;
/** The report keeps only the first gate failures and warnings; of those, a person reads the first few and the total. */
const FIRST_SHOWN = 20;

interface PlatformGuide {
  name: string;
  /** Where a person finds the API token on the platform. */
  token: string;
  /** What the platform's project id looks like. */
  project: string;
  /** Which of the platform's exports the importer reads. */
  export: string;
}

const PLATFORMS: Record<ImportPlatform, PlatformGuide> = {
  crowdin: {
    name: 'Crowdin',
    token: 'Token: in Crowdin, Settings → API (a personal access token).',
    project: 'The numeric project id, shown on the project’s Tools → API page.',
    export: 'Export: the zip of a project build (Translations → Build & Download), a TMX translation memory or a TBX glossary.',
  },
  lokalise: {
    name: 'Lokalise',
    token: 'Token: in Lokalise, Profile → API tokens.',
    project: 'The project id, shown under the project’s More → Settings.',
    export: 'Export: the zip of Download with original filenames, each language in its own %LANG_ISO% folder, with TMX memory beside it.',
  },
  phrase: {
    name: 'Phrase',
    token: 'Token: in Phrase Strings, Settings → Access tokens.',
    project: 'The project id, shown under the project’s Settings → API.',
    export: 'Export: what phrase pull writes (one file per locale, as .phrase.yml names them), zipped, with TMX memory if you have it.',
  },
  transifex: {
    name: 'Transifex',
    token: 'Token: in Transifex, User settings → API token.',
    project: 'The project as o:<organization>:p:<project>, e.g. o:acme:p:web-app.',
    export: 'Export: .tx/config with the files tx pull wrote, zipped, with TMX and glossary CSV downloads if you have them.',
  },
  tolgee: {
    name: 'Tolgee',
    token: 'Token: in Tolgee, Project → Integrate (a project API key) or Account → Personal access tokens.',
    project: 'The numeric project id, shown in the project’s address.',
    export: 'Export: the export zip (JSON files per language and namespace), with a TMX memory and a glossary CSV beside them if you have them.',
  },
  poeditor: {
    name: 'POEditor',
    token: 'Token: in POEditor, Account settings or Organization settings → API access.',
    project: 'The numeric project id, shown on the API access page beside the token.',
    export: 'Export: each language exported as JSON and named by its language code (de.json, pt-br.json), zipped together.',
  },
};

const PLATFORM_IDS = Object.keys(PLATFORMS) as ImportPlatform[];

type Status = ImportJob['status'];
const isMoving = (status: Status) => status === 'queued' || status === 'running';

export function ImportsPage(props: { importId: string | undefined }) {
  const { projectId } = useProject();
  if (props.importId) {
    return (
      <ProjectPage
        title={`Import ${props.importId}`}
        ability="manage"
        intro={
          <p>
            <a href={projectHref(projectId, 'imports')}>← All imports, and a new import</a>
          </p>
        }
      >
        <ImportDetail importId={props.importId} />
      </ProjectPage>
    );
  }
  return <NewImportPage />;
}

function NewImportPage() {
  // Bumped when an import starts or ends here, so the list below shows it.
  const [changed, setChanged] = useState(0);
  const [started, setStarted] = useState<ImportJob>();
  return (
    <ProjectPage
      title="Import from another platform"
      ability="manage"
      intro={
        <p>
          Brings keys, translations, review states, translation memory and glossary across from Crowdin, Lokalise, Phrase, Transifex, Tolgee or POEditor. Imports never
          charge words, and running the same import again changes only what changed on the platform since.
        </p>
      }
    >
      <ImportForm
        onStarted={(job) => {
          setStarted(job);
          setChanged((n) => n + 1);
        }}
      />
      {started ? <ImportLive key={started.id} initial={started} onFinished={() => setChanged((n) => n + 1)} /> : null}
      <ImportList changed={changed} />
    </ProjectPage>
  );
}

type Way = 'api' | 'archive';

function ImportForm(props: { onStarted(job: ImportJob): void }) {
  const { client } = useProject();
  const { announce } = useAccount();
  const [platform, setPlatform] = useState<ImportPlatform>('crowdin');
  const [way, setWay] = useState<Way>('api');
  const [project, setProject] = useState('');
  const [token, setToken] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [file, setFile] = useState<File>();
  const [conflict, setConflict] = useState<NonNullable<ImportOptionsInput['conflict']>>('keep_human');
  const [unreviewed, setUnreviewed] = useState<NonNullable<ImportOptionsInput['unreviewed']>>('accept');
  const [dryRun, setDryRun] = useState(false);
  const request = useRequest();
  const guide = PLATFORMS[platform];

  const submit = (event: Event) => {
    event.preventDefault();
    return request.submit(async () => {
      const options: ImportOptionsInput = { conflict, unreviewed, dry_run: dryRun };
      let job: ImportJob;
      if (way === 'api') {
        job = await client.importFromApi({ platform, api: { token, project: project.trim(), ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}) }, options });
        // The service keeps the token only while this import runs; the page forgets it at once.
        setToken('');
      } else {
        if (!file) return;
        job = await client.importFromArchive({ platform, content: new Uint8Array(await file.arrayBuffer()), name: file.name, options });
      }
      announce(`Import from ${guide.name} queued.`);
      props.onStarted(job);
    });
  };

  return (
    <form class="card form" onSubmit={(e) => void submit(e)} aria-labelledby="import-form-title">
      <h2 id="import-form-title">New import</h2>
      <Field id="import-platform" label="Platform" hint={way === 'api' ? guide.token : guide.export}>
        <select id="import-platform" aria-describedby="import-platform-hint" value={platform} onChange={(e) => setPlatform(e.currentTarget.value as ImportPlatform)}>
          {PLATFORM_IDS.map((id) => (
            <option key={id} value={id}>
              {PLATFORMS[id].name}
            </option>
          ))}
        </select>
      </Field>
      <fieldset>
        <legend>Bring it across</legend>
        <div class="checks">
          <label class="check">
            <input type="radio" name="import-way" checked={way === 'api'} onChange={() => setWay('api')} /> Through the API, with a token of the platform
          </label>
          <label class="check">
            <input type="radio" name="import-way" checked={way === 'archive'} onChange={() => setWay('archive')} /> From an export downloaded from the platform
          </label>
        </div>
      </fieldset>
      {way === 'api' ? (
        <>
          <div class="form-grid">
            <Field id="import-project" label="Project id" hint={guide.project}>
              <input id="import-project" type="text" required maxLength={200} spellcheck={false} aria-describedby="import-project-hint" value={project} onInput={(e) => setProject(e.currentTarget.value)} />
            </Field>
            <Field id="import-token" label="API token" hint="Used for this import only, kept encrypted while it runs, then forgotten; never shown again.">
              <input
                id="import-token"
                type="password"
                required
                maxLength={4096}
                autoComplete="off"
                aria-describedby="import-token-hint"
                value={token}
                onInput={(e) => setToken(e.currentTarget.value)}
              />
            </Field>
          </div>
          <Field id="import-base-url" label="API address (optional)" hint="Only for a self-hosted Tolgee or an enterprise Crowdin domain; empty for the platform’s own.">
            <input id="import-base-url" type="url" maxLength={2000} aria-describedby="import-base-url-hint" value={baseUrl} onInput={(e) => setBaseUrl(e.currentTarget.value)} />
          </Field>
        </>
      ) : (
        <Field id="import-file" label="Export file" hint="A zip, TMX, TBX or CSV as the platform gave it; the line under Platform says which.">
          <input id="import-file" type="file" required aria-describedby="import-file-hint" onChange={(e) => setFile(e.currentTarget.files?.[0])} />
        </Field>
      )}
      <fieldset>
        <legend>When Parlance already has a translation</legend>
        <div class="checks">
          <label class="check">
            <input type="radio" name="import-conflict" checked={conflict === 'keep_human'} onChange={() => setConflict('keep_human')} /> Keep human translations (those a person
            wrote or approved here stay; machine ones are replaced)
          </label>
          <label class="check">
            <input type="radio" name="import-conflict" checked={conflict === 'overwrite'} onChange={() => setConflict('overwrite')} /> Overwrite (the platform wins everywhere)
          </label>
        </div>
      </fieldset>
      <fieldset>
        <legend>Translations not reviewed on the platform</legend>
        <div class="checks">
          <label class="check">
            <input type="radio" name="import-unreviewed" checked={unreviewed === 'accept'} onChange={() => setUnreviewed('accept')} /> Accept them as machine translations
          </label>
          <label class="check">
            <input type="radio" name="import-unreviewed" checked={unreviewed === 'hold'} onChange={() => setUnreviewed('hold')} /> Hold them for review
          </label>
        </div>
      </fieldset>
      <label class="check">
        <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.currentTarget.checked)} /> Dry run: read everything and report what would change, writing nothing
      </label>
      <ErrorNotice error={request.error} title="Import not started" />
      <button type="submit" disabled={request.busy || (way === 'archive' && !file)}>
        {request.busy ? 'Starting…' : 'Import'}
      </button>
    </form>
  );
}

function ImportDetail(props: { importId: string }) {
  const { client } = useProject();
  const job = useLoad(() => client.importJob(props.importId), [client, props.importId]);
  if (job.loading && !job.data) return <Loading what="the import" />;
  if (!job.data) return <ErrorNotice error={job.error} title="Import unavailable" />;
  return <ImportLive key={job.data.id} initial={job.data} />;
}

/** One import, read again every second while it is queued or running, with its Cancel button, then its report. */
function ImportLive(props: { initial: ImportJob; onFinished?(): void }) {
  const { client } = useProject();
  const { announce } = useAccount();
  const [job, setJob] = useState<ImportJob>(props.initial);
  const [pollError, setPollError] = useState<unknown>();
  const request = useRequest();

  const finished = (fresh: ImportJob) => {
    announce(`Import from ${PLATFORMS[fresh.platform].name} ${fresh.status}${fresh.status === 'completed' ? `: ${summary(fresh)}` : ''}.`);
    props.onFinished?.();
  };

  usePoll(
    async () => {
      try {
        const fresh = await client.importJob(job.id);
        setJob(fresh);
        setPollError(undefined);
        if (!isMoving(fresh.status)) finished(fresh);
      } catch (failure) {
        setPollError(failure);
      }
    },
    POLL_MS,
    isMoving(job.status),
  );

  const cancel = () =>
    request.submit(async () => {
      const updated = await client.cancelImport(job.id);
      setJob(updated);
      finished(updated);
    });

  const titleId = `import-${job.id}-title`;
  return (
    <section class="card" aria-labelledby={titleId}>
      <h2 id={titleId} class="h-small">
        <ImportStatus status={job.status} /> {PLATFORMS[job.platform].name}, {origin(job)} <span class="muted mono">{job.id}</span>
      </h2>
      <dl class="facts inline">
        <dt>Options</dt>
        <dd>
          {job.options.conflict === 'overwrite' ? 'overwrite' : 'keep human translations'}; unreviewed: {job.options.unreviewed === 'hold' ? 'held for review' : 'accepted'}
          {job.options.dry_run ? '; dry run' : ''}
        </dd>
        <dt>Times</dt>
        <dd>
          queued {formatDate(job.created_at)}, started {formatDate(job.started_at)}, finished {formatDate(job.finished_at)}
        </dd>
      </dl>
      {isMoving(job.status) ? (
        <>
          <Progress job={job} />
          <ErrorNotice error={pollError} title="Progress unavailable" />
          <ErrorNotice error={request.error} title="Not cancelled" />
          <div class="actions">
            <button type="button" class="danger" disabled={request.busy} onClick={() => void cancel()}>
              {request.busy ? 'Cancelling…' : 'Cancel import'}
            </button>
            <span class="hint">What was already written stays; running the import again later carries on.</span>
          </div>
        </>
      ) : (
        <ImportReport job={job} />
      )}
    </section>
  );
}

function Progress(props: { job: ImportJob }) {
  const { message, done, total } = props.job.progress;
  const text = message ?? props.job.status;
  if (done !== undefined && total !== undefined && total > 0) {
    return <ProgressBar label="Import progress" value={done} max={total} text={`${text}: ${formatNumber(done)} of ${formatNumber(total)}`} />;
  }
  return <p class="hint">{text}…</p>;
}

function ImportStatus(props: { status: Status }) {
  return <span class={`badge status-${props.status}`}>{props.status}</span>;
}

const origin = (job: ImportJob) => (job.source === 'api' ? 'through the API' : `from the export ${job.archive_name ?? ''}`.trim());

function summary(job: ImportJob): string {
  const { added, updated, unchanged } = job.report.keys;
  return `${formatNumber(added)} added, ${formatNumber(updated)} updated, ${formatNumber(unchanged)} unchanged`;
}

/** What an import did (or, in a dry run, would do), in the order a person checks it. */
function ImportReport(props: { job: ImportJob }) {
  const { job } = props;
  const { report } = job;
  const locales = Object.entries(report.locales).sort(([a], [b]) => a.localeCompare(b));
  const mappings = Object.entries(report.locale_mappings);
  return (
    <>
      {job.status === 'failed' ? (
        <div class="notice notice-error">
          <p>
            <strong>The import failed:</strong> {job.error ?? 'no reason was recorded.'}
          </p>
          <p class="hint">What it wrote before failing stays. Running it again carries on and changes nothing already written.</p>
        </div>
      ) : null}
      {job.status === 'cancelled' ? <p class="hint">Cancelled: what it wrote before stays.</p> : null}
      {job.options.dry_run ? (
        <Notice kind="info">
          <p>A dry run: nothing was written. This is what the import would change.</p>
        </Notice>
      ) : null}
      <h3 class="h-small">{job.options.dry_run ? 'What it would change' : 'What it changed'}</h3>
      <dl class="facts">
        <dt>Keys</dt>
        <dd>{summary(job)}</dd>
        <dt>Languages added</dt>
        <dd>{report.languages_added.length > 0 ? report.languages_added.map(localeLabel).join(', ') : 'none'}</dd>
        <dt>Language codes mapped</dt>
        <dd>
          {mappings.length > 0
            ? mappings.map(([from, to], i) => (
                <span key={from}>
                  {i > 0 ? ', ' : ''}
                  <span class="mono">{from}</span> → <span class="mono">{to}</span>
                </span>
              ))
            : 'none: every code was already a BCP-47 tag'}
        </dd>
        <dt>Translation memory</dt>
        <dd>{plural(report.memory_units, 'unit')}</dd>
        <dt>Glossary terms</dt>
        <dd>
          {formatNumber(report.glossary_terms.added)} added, {formatNumber(report.glossary_terms.updated)} updated
        </dd>
      </dl>
      {locales.length > 0 ? (
        <DataTable
          label="Translations by language"
          columns={[
            'Language',
            { label: 'Keys', num: true },
            { label: 'Translations', num: true },
            { label: 'Human', num: true },
            { label: 'Machine', num: true },
            { label: 'Held', num: true },
            { label: 'Flagged', num: true },
            { label: 'Kept', num: true },
            { label: 'Memory', num: true },
            { label: 'Glossary', num: true },
          ]}
        >
          {locales.map(([tag, t]) => (
            <tr key={tag}>
              <th scope="row">{localeLabel(tag)}</th>
              <td class="num">{formatNumber(t.keys)}</td>
              <td class="num">{formatNumber(t.translations ?? 0)}</td>
              <td class="num">{formatNumber(t.human)}</td>
              <td class="num">{formatNumber(t.machine)}</td>
              <td class="num">{formatNumber(t.held)}</td>
              <td class="num">{formatNumber(t.flagged)}</td>
              <td class="num">{formatNumber(t.kept)}</td>
              <td class="num">{formatNumber(t.memory)}</td>
              <td class="num">{formatNumber(t.glossary ?? 0)}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <p class="hint">
        Keys: keys with a translation in the language now. Human: reviewed on the platform, protected from machine passes even where a quality gate failed (listed below).
        Held: waiting in the review queue. Flagged: not reviewed, and a quality gate failed (listed below). Kept: a person’s translation here won over the platform’s.
      </p>
      <GateFailureTable job={job} />
      <Warnings job={job} />
    </>
  );
}

function GateFailureTable(props: { job: ImportJob }) {
  const { gate_failures: failures, gate_failures_count: count } = props.job.report;
  if (count === 0) return <p>No translation failed a quality gate.</p>;
  const shown = failures.slice(0, FIRST_SHOWN);
  return (
    <>
      <h3 class="h-small">
        Gate failures: {formatNumber(count)}
        {shown.length < count ? ` (the first ${formatNumber(shown.length)} shown)` : ''}
      </h3>
      <DataTable label="Gate failures" columns={['Key', 'Language', 'Gate', 'Reason']}>
        {shown.map((f, i) => (
          <tr key={i}>
            <td class="mono">
              {f.key}
              {f.path ? <span class="muted"> ({f.path})</span> : null}
            </td>
            <td>{f.locale}</td>
            <td>
              <span class={`badge gate-${f.gate}`}>{f.gate}</span>
            </td>
            <td>{f.reason}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}

function Warnings(props: { job: ImportJob }) {
  const { warnings, warnings_count: count } = props.job.report;
  if (count === 0) return <p>No warnings.</p>;
  const shown = warnings.slice(0, FIRST_SHOWN);
  return (
    <>
      <h3 class="h-small">
        Warnings: {formatNumber(count)}
        {shown.length < count ? ` (the first ${formatNumber(shown.length)} shown)` : ''}
      </h3>
      <ul>
        {shown.map((w, i) => (
          <li key={i}>
            {w.message}
            {w.ref ? <span class="muted mono"> ({w.ref})</span> : null}
          </li>
        ))}
      </ul>
    </>
  );
}

function ImportList(props: { changed: number }) {
  const { client, projectId } = useProject();
  const paging = useCursorPages();
  const { cursor } = paging;
  const page = useLoad(() => client.imports({ limit: LIST_PAGE, ...(cursor ? { cursor } : {}) }), [client, cursor, props.changed]);

  // Imports started elsewhere (another tab, the CLI) move too: the list follows them while any is under way.
  usePoll(
    async () => page.set(await client.imports({ limit: LIST_PAGE, ...(cursor ? { cursor } : {}) })),
    POLL_MS,
    page.data?.items.some((job) => isMoving(job.status)) ?? false,
  );

  return (
    <section aria-labelledby="imports-title">
      <h2 id="imports-title">Past imports</h2>
      <ErrorNotice error={page.error} title="Imports unavailable" />
      {page.loading && !page.data ? <Loading what="imports" /> : null}
      {page.data && page.data.items.length === 0 ? <p>No imports yet.</p> : null}
      {page.data && page.data.items.length > 0 ? (
        <DataTable label="Past imports" columns={['Import', 'Status', 'Platform', 'Source', 'Keys', 'Queued']} busy={page.loading}>
          {page.data.items.map((job) => (
            <tr key={job.id}>
              <td>
                <a class="mono" href={projectHref(projectId, 'imports', job.id)}>
                  {job.id}
                </a>
              </td>
              <td>
                <ImportStatus status={job.status} />
              </td>
              <td>{PLATFORMS[job.platform].name}</td>
              <td>{job.source === 'api' ? 'API' : `export ${job.archive_name ?? ''}`.trim()}</td>
              <td>{isMoving(job.status) ? '—' : summary(job)}</td>
              <td>{formatDate(job.created_at)}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <Pager label="Import pages" pages={paging} next={page.data?.next_cursor} />
    </section>
  );
}
