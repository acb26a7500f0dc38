/**
 * Bitbucket Cloud (REST API 2.0) as a code host: reads `parlance.yml` and the source files through `/src`, writes one
 * commit per batch on `parlance/<base>` with the multipart `POST /src` (its `parents` field is Bitbucket's own
 * compare-and-swap: a branch that moved since it was read answers 409, and nothing is written), keeps one pull request
 * open, and reports each commit as a Code Insights report whose annotations put the refused and flagged rows on their
 * source lines, plus a build status when there is a link to show.
 *
 * The branch is never rebuilt on a moved base, as the other code hosts do while only Parlance committed there: `POST
 * /src` refuses a parent other than the branch's tip (409), branches have no update, and deleting the branch may
 * decline the open pull request. Parlance always extends it (docs/decisions.md).
 *
 * Webhooks: Bitbucket signs a webhook's body with its secret (`X-Hub-Signature: sha256=<hex>`); a `repo:push` whose
 * changes include the base branch starts a sync. Bitbucket puts no timestamp under the signature, so a replayed
 * notification cannot be told from a new one; a replay only starts a harmless extra sync.
 *
 * Reference: https://developer.atlassian.com/cloud/bitbucket/rest/api-group-source/ (listing, `POST /src`),
 * api-group-refs (branches), api-group-commits (merge-base), api-group-pullrequests, api-group-reports (Code Insights), api-group-commit-statuses, and
 * https://support.atlassian.com/bitbucket-cloud/docs/manage-webhooks/ (secret and `X-Hub-Signature`).
 */
import { createHash, createHmac } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import { codeHostSettings, createCodeHostConnector, type CodeHostSettings, type GitHost } from '../code-host.js';
import type { ConnectorContext, ReportRow, WebhookRequest, WebhookVerdict } from '../connector.js';
import { ConnectorError } from '../connector-error.js';
import { failure, vendorMessage } from '../connector-http.js';
import { sameSecret } from '../same-secret.js';

const settingsSchema = z
  .object({
    api_url: z.string().url().default('https://api.bitbucket.org/2.0').openapi({ description: 'The Bitbucket Cloud API root. Default `https://api.bitbucket.org/2.0`.' }),
    workspace: z.string().min(1).openapi({ description: "The workspace's ID (slug), as in bitbucket.org/{workspace}/{repo_slug}." }),
    repo_slug: z.string().min(1).openapi({ description: "The repository's slug, as in bitbucket.org/{workspace}/{repo_slug}." }),
    ...codeHostSettings,
  })
  .strict();

const tokenSecrets = z
  .object({ access_token: z.string().min(1).openapi({ description: 'A repository or workspace access token with the Repositories: Write and Pull requests: Write scopes (sent as Bearer).' }) })
  .strict();
const passwordSecrets = z
  .object({
    username: z.string().min(1).openapi({ description: 'The Bitbucket username (or Atlassian account email for an API token) the app password belongs to.' }),
    app_password: z.string().min(1).openapi({ description: 'An app password (or API token) with repository:write and pullrequest:write (sent as Basic).' }),
  })
  .strict();
const secretsSchema = z.union([tokenSecrets, passwordSecrets]);

export type BitbucketSettings = z.infer<typeof settingsSchema> & CodeHostSettings;
export type BitbucketSecrets = z.infer<typeof secretsSchema>;
type Context = ConnectorContext<BitbucketSettings, BitbucketSecrets>;

/** Bitbucket takes at most 100 annotations in one request and keeps at most 1000 on a report. */
const ANNOTATIONS_PER_REQUEST = 100;
const ANNOTATIONS_PER_REPORT = 1000;
/** Also the id of the Code Insights report and the key of the build status, so each sync replaces the last one. */
const REPORT_ID = 'parlance';

function authorization(secrets: BitbucketSecrets): string {
  if ('access_token' in secrets) return `Bearer ${secrets.access_token}`;
  return `Basic ${Buffer.from(`${secrets.username}:${secrets.app_password}`).toString('base64')}`;
}

/** A repository path as URL path segments, each escaped (a path may hold spaces, '#', '?'). */
const escapePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

interface Paged<T> {
  values: T[];
  next?: string;
}
interface SrcEntry {
  path: string;
  type: 'commit_file' | 'commit_directory' | 'commit_link';
}
interface PullRequest {
  id: number;
  links: { html: { href: string } };
}

function openBitbucket(ctx: Context): GitHost {
  const s = ctx.settings;
  const repo = `${s.api_url.replace(/\/+$/, '')}/repositories/${encodeURIComponent(s.workspace)}/${encodeURIComponent(s.repo_slug)}`;
  const label = `${s.workspace}/${s.repo_slug} on Bitbucket`;
  const headers = { authorization: authorization(ctx.secrets) };
  const json = <T>(url: string, what: string, init: { method?: string; body?: unknown } = {}) =>
    ctx.http.json<T>(url, {
      what,
      headers: init.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(init.method ? { method: init.method } : {}),
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  /** A 404 on a branch or a file means "no such branch/file" only when the repository itself is there. */
  async function assertRepository(): Promise<void> {
    const response = await ctx.http.request(repo, { headers });
    if (response.ok) return void (await response.body?.cancel());
    if (response.status === 404) throw new ConnectorError('config', `Reading ${label}: no repository '${s.repo_slug}' in workspace '${s.workspace}' (HTTP 404); check the connection's workspace and repo_slug settings.`);
    throw await failure(response, `Reading ${label}`);
  }

  async function branchHead(branch: string): Promise<string | null> {
    const response = await ctx.http.request(`${repo}/refs/branches/${encodeURIComponent(branch)}`, { headers });
    if (response.status === 404) {
      await response.body?.cancel();
      await assertRepository();
      return null;
    }
    if (!response.ok) throw await failure(response, `Reading branch '${branch}' of ${label}`);
    const body = (await response.json()) as { target?: { hash?: string } };
    if (!body.target?.hash) throw new ConnectorError('unavailable', `Reading branch '${branch}' of ${label}: the answer names no target commit.`);
    return body.target.hash;
  }

  /** Lists a directory `depth` levels deep, page by page, and goes on below the directories at that depth. */
  async function listFiles(commit: string): Promise<string[]> {
    const depth = 10;
    const files: string[] = [];
    const pending = [''];
    while (pending.length > 0) {
      const dir = pending.shift()!;
      const base = dir === '' ? 0 : dir.split('/').length;
      let url: string | undefined = `${repo}/src/${encodeURIComponent(commit)}/${dir === '' ? '' : `${escapePath(dir)}/`}?max_depth=${depth}&pagelen=100`;
      while (url) {
        const page: Paged<SrcEntry> = await json<Paged<SrcEntry>>(url, `Listing the files of ${label} at ${commit.slice(0, 12)}`);
        for (const entry of page.values) {
          if (entry.type === 'commit_file') files.push(entry.path);
          else if (entry.type === 'commit_directory' && entry.path.split('/').length - base >= depth) pending.push(entry.path);
        }
        url = page.next;
      }
    }
    return files;
  }

  async function readFile(commit: string, path: string): Promise<Uint8Array | null> {
    const response = await ctx.http.request(`${repo}/src/${encodeURIComponent(commit)}/${escapePath(path)}`, { headers: { ...headers, accept: '*/*' } });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw await failure(response, `Reading ${path} of ${label} at ${commit.slice(0, 12)}`);
    return new Uint8Array(await response.arrayBuffer());
  }

  const commitFromLocation = (location: string | null) => location?.match(/\/commit\/([0-9a-f]{7,40})\/?$/i)?.[1];

  async function commit(input: Parameters<GitHost['commit']>[0]): Promise<string> {
    const form = new FormData();
    form.set('message', input.message);
    form.set('branch', input.branch);
    // The compare-and-swap: on an existing branch Bitbucket checks that `parents` is still its head (else 409).
    form.set('parents', input.parent);
    for (const file of input.files) form.set(file.path, new Blob([file.content], { type: 'application/octet-stream' }), file.path.split('/').pop()!);
    // FormData serialised by the platform: the boundary and each part's headers come out right for any bytes.
    const encoded = new Request('http://form.invalid/', { method: 'POST', body: form });
    const body = new Uint8Array(await encoded.arrayBuffer());
    const what = `Committing ${input.files.length} translation file(s) on '${input.branch}' of ${label}`;
    const response = await ctx.http.request(`${repo}/src`, { method: 'POST', headers: { ...headers, 'content-type': encoded.headers.get('content-type')! }, body });
    if (response.status === 409) {
      const said = vendorMessage(await response.text().catch(() => ''));
      throw new ConnectorError('unavailable', `${what}: the branch moved since Parlance read it at ${input.parent.slice(0, 12)} (someone pushed to it), so nothing was written and nothing of theirs was overwritten; the next attempt starts from the new head (Bitbucket answered HTTP 409${said ? `: ${said}` : ''}).`);
    }
    if (!response.ok) throw await failure(response, what);
    await response.body?.cancel();
    const created = commitFromLocation(response.headers.get('location'));
    if (created) return created;
    // Bitbucket names the new commit in Location; without it, the branch's head is the commit just made.
    const head = await branchHead(input.branch);
    if (!head) throw new ConnectorError('unavailable', `${what}: Bitbucket answered ${response.status} but the branch is not there.`);
    return head;
  }

  async function findRequest(source: string, target: string): Promise<{ id: string; url: string } | null> {
    const q = `source.branch.name="${source}" AND destination.branch.name="${target}" AND state="OPEN"`;
    const page = await json<Paged<PullRequest>>(`${repo}/pullrequests?state=OPEN&q=${encodeURIComponent(q)}`, `Looking for the pull request from '${source}' in ${label}`);
    const found = page.values[0];
    return found ? { id: String(found.id), url: found.links.html.href } : null;
  }

  async function openRequest(input: { source: string; target: string; title: string; body: string }): Promise<{ id: string; url: string }> {
    const created = await json<PullRequest>(`${repo}/pullrequests`, `Opening the pull request from '${input.source}' in ${label}`, {
      method: 'POST',
      body: { title: input.title, description: input.body, source: { branch: { name: input.source } }, destination: { branch: { name: input.target } }, close_source_branch: false },
    });
    return { id: String(created.id), url: created.links.html.href };
  }

  async function updateRequest(id: string, input: { title: string; body: string }): Promise<void> {
    await json(`${repo}/pullrequests/${encodeURIComponent(id)}`, `Updating pull request #${id} in ${label}`, { method: 'PUT', body: { title: input.title, description: input.body } });
  }

  async function reportStatus(input: Parameters<GitHost['reportStatus']>[0]): Promise<void> {
    const at = `${repo}/commit/${encodeURIComponent(input.commit)}`;
    const refused = input.problems.filter((p) => p.outcome === 'refused').length;
    await json(`${at}/reports/${REPORT_ID}`, `Reporting on commit ${input.commit.slice(0, 12)} of ${label}`, {
      method: 'PUT',
      body: {
        title: 'Parlance',
        details: input.summary.slice(0, 2000),
        report_type: 'BUG',
        reporter: 'Parlance',
        result: input.state === 'success' ? 'PASSED' : 'FAILED',
        ...(input.url ? { link: input.url } : {}),
        data: [
          { title: 'Refused', type: 'NUMBER', value: refused },
          { title: 'Flagged', type: 'NUMBER', value: input.problems.length - refused },
        ],
      },
    });
    const annotations = input.problems.slice(0, ANNOTATIONS_PER_REPORT).map(annotation);
    for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST) {
      await json(`${at}/reports/${REPORT_ID}/annotations`, `Annotating commit ${input.commit.slice(0, 12)} of ${label}`, { method: 'POST', body: annotations.slice(i, i + ANNOTATIONS_PER_REQUEST) });
    }
    // A build status needs a link (Bitbucket requires `url`); without one the report stands alone.
    if (input.url) {
      await json(`${at}/statuses/build`, `Setting the build status of commit ${input.commit.slice(0, 12)} of ${label}`, {
        method: 'POST',
        body: { key: REPORT_ID, state: input.state === 'success' ? 'SUCCESSFUL' : 'FAILED', name: 'Parlance', description: input.summary.slice(0, 255), url: input.url },
      });
    }
  }

  async function mergeBase(a: string, b: string): Promise<string> {
    const found = await json<{ hash: string }>(`${repo}/merge-base/${encodeURIComponent(`${a}..${b}`)}`, `Finding the merge base of ${a.slice(0, 12)} and ${b.slice(0, 12)} in ${label}`);
    return found.hash;
  }

  return { label, branchHead, listFiles, readFile, commit, findRequest, openRequest, updateRequest, reportStatus, mergeBase };
}

/** One annotation per problem row; its external id is stable, so reporting the same row again replaces it. */
function annotation(row: ReportRow) {
  const externalId = createHash('sha256').update(`${row.path}\0${row.key}\0${row.locale}`).digest('hex').slice(0, 32);
  return {
    external_id: `parlance-${externalId}`,
    annotation_type: 'BUG',
    path: row.path,
    ...(row.line !== null ? { line: row.line } : {}),
    summary: `${row.locale} '${row.key}' ${row.outcome}: ${row.reason}`.slice(0, 450),
    severity: row.outcome === 'refused' ? 'HIGH' : 'MEDIUM',
    result: 'FAILED',
  };
}

const pushPayload = z.object({
  repository: z.object({ full_name: z.string() }).optional(),
  push: z.object({
    changes: z.array(z.object({ new: z.object({ type: z.string(), name: z.string() }).nullable().optional() })),
  }),
});

export function verifyBitbucketWebhook(request: WebhookRequest, webhookSecret: string, settings: BitbucketSettings): WebhookVerdict {
  const signature = request.headers.get('x-hub-signature');
  if (!signature) return { verified: false, sync: false, reason: 'No X-Hub-Signature header: set the webhook secret on the Bitbucket webhook to the connection’s webhook_secret.' };
  const expected = `sha256=${createHmac('sha256', webhookSecret).update(request.body).digest('hex')}`;
  if (!sameSecret(signature.toLowerCase(), expected)) return { verified: false, sync: false, reason: 'X-Hub-Signature does not match the body signed with the connection’s webhook secret.' };
  const event = request.headers.get('x-event-key');
  if (event !== 'repo:push') return { verified: true, sync: false, reason: `Event '${event ?? '(none)'}' is not repo:push; nothing to sync.` };
  let parsed;
  try {
    parsed = pushPayload.safeParse(JSON.parse(new TextDecoder().decode(request.body)));
  } catch {
    return { verified: true, sync: false, reason: 'The repo:push body is not JSON.' };
  }
  if (!parsed.success) return { verified: true, sync: false, reason: `The repo:push body is not a push payload: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}.` };
  const wanted = `${settings.workspace}/${settings.repo_slug}`.toLowerCase();
  const fullName = parsed.data.repository?.full_name;
  if (fullName && fullName.toLowerCase() !== wanted) return { verified: true, sync: false, reason: `The push is to ${fullName}, not ${wanted}.` };
  const base = settings.base_branch;
  const touched = parsed.data.push.changes.some((change) => change.new?.type === 'branch' && change.new.name === base);
  return touched ? { verified: true, sync: true } : { verified: true, sync: false, reason: `The push does not change branch '${base}'.` };
}

export const bitbucket = createCodeHostConnector<BitbucketSettings, BitbucketSecrets>({
  id: 'bitbucket',
  name: 'Bitbucket Cloud',
  summary:
    'A Bitbucket Cloud repository with parlance.yml: pushes to the base branch are translated, one commit per batch on parlance/<base> and one pull request carry the translations, refused rows are Code Insights annotations on their source lines.',
  settings: settingsSchema,
  secrets: secretsSchema,
  webhooks: "Bitbucket's X-Hub-Signature (sha256=HMAC-SHA256 of the body with the webhook's secret), event repo:push",
  open: openBitbucket,
  verifyWebhook: verifyBitbucketWebhook,
});
