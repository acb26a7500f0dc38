/**
 * A stateful GitHub REST stand-in on 127.0.0.1 for the GitHub App's tests: a git object store with real SHA-1 ids,
 * refs with fast-forward and `force` semantics, pull requests, issue comments, check runs, installation tokens, and
 * signed webhook deliveries to the App. It answers under a GitHub Enterprise Server prefix (`/api/v3`), so the App
 * reaches it through GITHUB_API_URL alone. Requests are checked against GitHub's OpenAPI description and refused
 * with 422 when they depart from it, as GitHub would; `inject` fails a chosen call or runs something (a person's
 * concurrent push) just before it is answered.
 */
import { createHash, createHmac, createPublicKey, randomUUID, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { githubRequestProblems } from './github-openapi.js';

export const STANDIN_API_PREFIX = '/api/v3';
const ZERO_SHA = '0'.repeat(40);
const MAX_BODY_BYTES = 60 * 1024 * 1024;
/** Above this the contents API answers without content (encoding 'none'), as GitHub does for files over 1 MB. */
const CONTENTS_INLINE_LIMIT = 1024 * 1024;

type Mode = '100644' | '100755' | '040000' | '120000' | '160000';
interface TreeItem {
  name: string;
  mode: Mode;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
}
/** Who made a commit: the signature git hashes, and the GitHub account the API reports (null: no account). */
export interface Actor {
  name: string;
  email: string;
  login: string | null;
  type: 'User' | 'Bot';
}
interface CommitObject {
  type: 'commit';
  tree: string;
  parents: string[];
  message: string;
  author: Actor;
  committer: Actor;
  date: number;
}
type GitObject = { type: 'blob'; content: Buffer } | { type: 'tree'; entries: TreeItem[] } | CommitObject;

export interface FlatEntry {
  mode: Mode;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
}

export interface PullRequest {
  number: number;
  state: 'open' | 'closed';
  title: string;
  body: string | null;
  head: string;
  base: string;
  user: string;
  merged: boolean;
}
export interface IssueComment {
  id: number;
  issue: number;
  body: string;
  user: { login: string; type: 'User' | 'Bot' };
}
export interface CheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
  external_id: string | null;
  details_url: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotations: Record<string, unknown>[] };
}
export interface Delivery {
  id: string;
  event: string;
  payload: Record<string, unknown>;
  /** The App's answer; 0 when it could not be reached. */
  status: number;
  response: string;
}

/** What a workflow's GITHUB_TOKEN may do (the `permissions:` block); a scope left out is 'none'. */
export type WorkflowPermissions = Partial<Record<'contents' | 'pull_requests' | 'issues', 'read' | 'write' | 'none'>>;

/** A call the stand-in answers specially: `at` is asked for every request (route is the OpenAPI template, count is 1-based per route since the last `calls.reset()`). */
export interface Injection {
  at: (method: string, path: string, count: number, route: string) => boolean;
  /** 'fail500' answers 500 without doing the work; a function runs (e.g. a person's push) before the call is handled. */
  do: 'fail500' | (() => Promise<void>);
  /** How many matching calls it applies to; 1 by default. */
  times?: number;
}

export interface StandinOptions {
  owner: string;
  repo: string;
  installationId: number;
  appId: number;
  appSlug: string;
  /** The App's private key (PEM); its public half verifies the App's JWTs. */
  appPrivateKey: string;
  defaultBranch?: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Git's object id: `<type> <size>\0<body>`. */
function objectId(type: string, body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.byteLength}\0`).update(body).digest('hex');
}

/** Git orders tree entries by name, a directory as if its name ended in '/'. */
function treeOrder(a: TreeItem, b: TreeItem): number {
  const ka = Buffer.from(a.type === 'tree' ? `${a.name}/` : a.name);
  const kb = Buffer.from(b.type === 'tree' ? `${b.name}/` : b.name);
  return Buffer.compare(ka, kb);
}

function serialise(object: GitObject): Buffer {
  switch (object.type) {
    case 'blob':
      return object.content;
    case 'tree':
      return Buffer.concat(
        [...object.entries].sort(treeOrder).flatMap((e) => [Buffer.from(`${e.mode === '040000' ? '40000' : e.mode} ${e.name}\0`), Buffer.from(e.sha, 'hex')]),
      );
    case 'commit': {
      const sig = (a: Actor) => `${a.name} <${a.email}> ${object.date} +0000`;
      const lines = [`tree ${object.tree}`, ...object.parents.map((p) => `parent ${p}`), `author ${sig(object.author)}`, `committer ${sig(object.committer)}`];
      return Buffer.from(`${lines.join('\n')}\n\n${object.message}`);
    }
  }
}

const json = (value: unknown) => JSON.stringify(value);

export async function startGithubStandin(options: StandinOptions) {
  const { owner, repo, installationId, appId, appSlug } = options;
  const defaultBranch = options.defaultBranch ?? 'main';
  const fullName = `${owner}/${repo}`;
  const publicKey: KeyObject = createPublicKey(options.appPrivateKey);
  const bot: Actor = { name: `${appSlug}[bot]`, email: `${appId}+${appSlug}[bot]@users.noreply.github.com`, login: `${appSlug}[bot]`, type: 'Bot' };

  const objects = new Map<string, GitObject>();
  const refs = new Map<string, string>();
  const pulls: PullRequest[] = [];
  const comments: IssueComment[] = [];
  const checkRuns: CheckRun[] = [];
  const deliveries: Delivery[] = [];
  const tokens = new Map<string, number>();
  /** Workflow tokens (GITHUB_TOKEN, as the Action gets it) and their permissions. */
  const workflowTokens = new Map<string, WorkflowPermissions>();
  /** The repository setting "Allow GitHub Actions to create and approve pull requests". */
  let actionsMayCreatePullRequests = true;
  const actionsBot: Actor = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com', login: 'github-actions[bot]', type: 'Bot' };
  const problems: string[] = [];
  const counts = new Map<string, number>();
  let injections: (Injection & { left: number })[] = [];
  let nextNumber = 1;
  let nextId = 1000;
  let clock = 1_767_225_600; // 2026-01-01, one second per commit so dates order the history
  let webhook: { url: string; secret: string } | undefined;
  const pending = new Set<Promise<unknown>>();

  function put(object: GitObject): string {
    const sha = objectId(object.type, serialise(object));
    if (!objects.has(sha)) objects.set(sha, object);
    return sha;
  }
  function get<T extends GitObject['type']>(sha: string, type: T): Extract<GitObject, { type: T }> | undefined {
    const object = objects.get(sha);
    return object?.type === type ? (object as Extract<GitObject, { type: T }>) : undefined;
  }

  /** Every path under a tree, directories included, as the recursive listing gives them. */
  function flatten(treeSha: string, prefix = '', out = new Map<string, FlatEntry>()): Map<string, FlatEntry> {
    const tree = get(treeSha, 'tree');
    if (!tree) throw new HttpError(422, `Tree ${treeSha} does not exist`);
    for (const e of [...tree.entries].sort(treeOrder)) {
      const path = prefix + e.name;
      out.set(path, { mode: e.mode, type: e.type, sha: e.sha });
      if (e.type === 'tree') flatten(e.sha, `${path}/`, out);
    }
    return out;
  }
  /** A tree from files (and submodules) by path; directories are made from the paths. */
  function buildTree(files: Map<string, FlatEntry>): string {
    const here: TreeItem[] = [];
    const dirs = new Map<string, Map<string, FlatEntry>>();
    for (const [path, entry] of files) {
      if (entry.type === 'tree') continue;
      const slash = path.indexOf('/');
      if (slash === -1) here.push({ name: path, ...entry });
      else {
        const dir = path.slice(0, slash);
        const inner = dirs.get(dir) ?? new Map<string, FlatEntry>();
        inner.set(path.slice(slash + 1), entry);
        dirs.set(dir, inner);
      }
    }
    for (const [name, inner] of dirs) here.push({ name, mode: '040000', type: 'tree', sha: buildTree(inner) });
    return put({ type: 'tree', entries: here });
  }
  const filesOnly = (flat: Map<string, FlatEntry>) => new Map([...flat].filter(([, e]) => e.type !== 'tree'));

  function commitOf(sha: string): CommitObject {
    const commit = get(sha, 'commit');
    if (!commit) throw new HttpError(404, 'Not Found');
    return commit;
  }
  /** A branch name, full ref or commit id → commit id. */
  function resolve(ref: string): string | undefined {
    if (/^[0-9a-f]{40}$/.test(ref) && objects.has(ref)) return ref;
    return refs.get(ref.startsWith('refs/') ? ref : `refs/heads/${ref}`) ?? refs.get(`refs/tags/${ref}`);
  }
  function ancestors(sha: string): Set<string> {
    const seen = new Set<string>();
    const stack = [sha];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(get(next, 'commit')?.parents ?? []));
    }
    return seen;
  }
  /** Commits reachable from `head` and not from `exclude`, oldest first. */
  function between(exclude: string | null, head: string): string[] {
    const hidden = exclude ? ancestors(exclude) : new Set<string>();
    return [...ancestors(head)].filter((s) => !hidden.has(s)).sort((a, b) => commitOf(a).date - commitOf(b).date || a.localeCompare(b));
  }
  function makeCommit(parents: string[], tree: string, message: string, author: Actor, committer: Actor = author): string {
    clock += 1;
    return put({ type: 'commit', tree, parents, message, author, committer, date: clock });
  }
  function diff(fromTree: string | null, toTree: string) {
    const before = fromTree ? filesOnly(flatten(fromTree)) : new Map<string, FlatEntry>();
    const after = filesOnly(flatten(toTree));
    const added = [...after.keys()].filter((p) => !before.has(p));
    const removed = [...before.keys()].filter((p) => !after.has(p));
    const modified = [...after.keys()].filter((p) => before.has(p) && before.get(p)!.sha !== after.get(p)!.sha);
    return { added, removed, modified };
  }

  // ---- shapes ----------------------------------------------------------------------------------------------
  let apiUrl = '';
  const htmlBase = `https://github.example.test/${fullName}`;
  const account = (a: Actor | { login: string; type: string }) => ({ login: a.login, id: 1, node_id: 'U_1', type: a.type, site_admin: false, avatar_url: '', url: '', html_url: '' });
  const repository = () => ({
    id: 1, node_id: 'R_1', name: repo, full_name: fullName, private: true, owner: { ...account({ login: owner, type: 'Organization' }), name: owner },
    html_url: htmlBase, url: `${apiUrl}/repos/${fullName}`, default_branch: defaultBranch, master_branch: defaultBranch, fork: false,
  });
  const refShape = (name: string, sha: string) => ({ ref: name, node_id: 'REF_1', url: `${apiUrl}/repos/${fullName}/git/${name}`, object: { sha, type: 'commit', url: `${apiUrl}/repos/${fullName}/git/commits/${sha}` } });
  const gitCommitShape = (sha: string) => {
    const c = commitOf(sha);
    const sig = (a: Actor) => ({ name: a.name, email: a.email, date: new Date(c.date * 1000).toISOString() });
    return {
      sha, node_id: 'C_1', url: `${apiUrl}/repos/${fullName}/git/commits/${sha}`, html_url: `${htmlBase}/commit/${sha}`,
      author: sig(c.author), committer: sig(c.committer), message: c.message,
      tree: { sha: c.tree, url: `${apiUrl}/repos/${fullName}/git/trees/${c.tree}` },
      parents: c.parents.map((p) => ({ sha: p, url: `${apiUrl}/repos/${fullName}/git/commits/${p}`, html_url: `${htmlBase}/commit/${p}` })),
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    };
  };
  const pullShape = (pr: PullRequest) => ({
    id: pr.number, number: pr.number, node_id: `PR_${pr.number}`, state: pr.state, title: pr.title, body: pr.body, locked: false, draft: false, merged: pr.merged,
    html_url: `${htmlBase}/pull/${pr.number}`, url: `${apiUrl}/repos/${fullName}/pulls/${pr.number}`, user: account({ login: pr.user, type: 'Bot' }),
    head: { ref: pr.head, label: `${owner}:${pr.head}`, sha: resolve(pr.head) ?? ZERO_SHA, repo: repository(), user: account({ login: owner, type: 'Organization' }) },
    base: { ref: pr.base, label: `${owner}:${pr.base}`, sha: resolve(pr.base) ?? ZERO_SHA, repo: repository(), user: account({ login: owner, type: 'Organization' }) },
  });
  const checkRunShape = (run: CheckRun) => ({
    id: run.id, node_id: `CR_${run.id}`, name: run.name, head_sha: run.head_sha, status: run.status, conclusion: run.conclusion, external_id: run.external_id,
    details_url: run.details_url, html_url: `${htmlBase}/runs/${run.id}`, url: `${apiUrl}/repos/${fullName}/check-runs/${run.id}`,
    output: { title: run.output.title, summary: run.output.summary, text: run.output.text, annotations_count: run.output.annotations.length, annotations_url: '' },
    app: { id: appId, slug: appSlug, name: appSlug }, check_suite: { id: 1 }, pull_requests: [],
  });

  // ---- webhooks -------------------------------------------------------------------------------------------
  async function deliver(event: string, payload: Record<string, unknown>, id: string = randomUUID()): Promise<Delivery> {
    const delivery: Delivery = { id, event, payload, status: 0, response: '' };
    deliveries.push(delivery);
    if (!webhook) return delivery;
    const body = json(payload);
    const signature = `sha256=${createHmac('sha256', webhook.secret).update(body).digest('hex')}`;
    const sending = (async () => {
      try {
        const res = await fetch(webhook!.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'GitHub-Hookshot/standin', 'x-github-event': event, 'x-github-delivery': id, 'x-github-hook-id': '1', 'x-hub-signature-256': signature },
          body,
        });
        delivery.status = res.status;
        delivery.response = await res.text();
      } catch (error) {
        delivery.response = String(error);
      }
    })();
    pending.add(sending);
    try {
      await sending;
    } finally {
      pending.delete(sending);
    }
    return delivery;
  }

  function pushPayload(refName: string, before: string, after: string, sender: Actor): Record<string, unknown> {
    const deleted = after === ZERO_SHA;
    const fresh = deleted ? [] : between(before === ZERO_SHA ? null : before, after).slice(-20);
    const commitEntry = (sha: string) => {
      const c = commitOf(sha);
      const parentTree = c.parents[0] ? commitOf(c.parents[0]).tree : null;
      const d = diff(parentTree, c.tree);
      const person = (a: Actor) => ({ name: a.name, email: a.email, ...(a.login ? { username: a.login } : {}) });
      return { id: sha, tree_id: c.tree, distinct: true, message: c.message, timestamp: new Date(c.date * 1000).toISOString(), url: `${htmlBase}/commit/${sha}`, author: person(c.author), committer: person(c.committer), ...d };
    };
    const commits = fresh.map(commitEntry);
    return {
      ref: refName, before, after, created: before === ZERO_SHA, deleted,
      forced: before !== ZERO_SHA && !deleted && !ancestors(after).has(before),
      base_ref: null, compare: `${htmlBase}/compare/${before.slice(0, 12)}...${after.slice(0, 12)}`,
      commits, head_commit: commits.at(-1) ?? null,
      repository: repository(), pusher: { name: sender.login ?? sender.name, email: sender.email }, sender: account(sender),
      installation: { id: installationId, node_id: `I_${installationId}` },
    };
  }
  /** Moves a ref and tells the App, as GitHub does for every push (the App's own included). */
  function setRef(refName: string, sha: string | null, sender: Actor): Promise<Delivery> | undefined {
    const before = refs.get(refName) ?? ZERO_SHA;
    if (sha === null) refs.delete(refName);
    else refs.set(refName, sha);
    if (!webhook) return undefined;
    return deliver('push', pushPayload(refName, before, sha ?? ZERO_SHA, sender));
  }

  // ---- routes ---------------------------------------------------------------------------------------------
  /** Who made the request: the App's bot for its installation tokens (and JWTs), github-actions[bot] for a workflow token. */
  function authenticate(req: IncomingMessage, app: boolean): Actor {
    const header = req.headers.authorization ?? '';
    const [scheme, credential] = header.split(' ');
    if (!credential) throw new HttpError(401, 'Requires authentication');
    if (app) {
      if (scheme?.toLowerCase() !== 'bearer') throw new HttpError(401, 'A JSON web token could not be decoded');
      const [h, p, s] = credential.split('.');
      if (!h || !p || !s || !verify('RSA-SHA256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'))) throw new HttpError(401, 'A JSON web token could not be decoded');
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { iss?: unknown; exp?: number };
      if (String(claims.iss) !== String(appId)) throw new HttpError(401, `'Issuer' claim ('iss') must be the App's id`);
      if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) throw new HttpError(401, "'Expiration time' claim ('exp') is too far in the past");
      return bot;
    }
    if (['token', 'bearer'].includes(scheme?.toLowerCase() ?? '') && workflowTokens.has(credential)) return actionsBot;
    if (!['token', 'bearer'].includes(scheme?.toLowerCase() ?? '') || tokens.get(credential) !== installationId) throw new HttpError(401, 'Bad credentials');
    return bot;
  }

  /** A workflow token's permission for a route, as GitHub checks it: 403 "Resource not accessible by integration". */
  function authorizeWorkflowToken(req: IncomingMessage, method: string, template: string): void {
    const credential = (req.headers.authorization ?? '').split(' ')[1] ?? '';
    const permissions = workflowTokens.get(credential);
    if (!permissions) return;
    const write = method !== 'GET';
    const scopes: ('contents' | 'pull_requests' | 'issues')[] = template.includes('/pulls') ? ['pull_requests'] : template.includes('/issues/') ? ['pull_requests', 'issues'] : ['contents'];
    const allowed = scopes.some((scope) => {
      const level = permissions[scope] ?? 'none';
      return write ? level === 'write' : level === 'read' || level === 'write';
    });
    if (!allowed) throw new HttpError(403, 'Resource not accessible by integration');
    if (method === 'POST' && template === '/repos/{owner}/{repo}/pulls' && !actionsMayCreatePullRequests) throw new HttpError(403, 'GitHub Actions is not permitted to create or approve pull requests.');
  }

  type Handler = (ctx: { params: Record<string, string>; query: URLSearchParams; body: Record<string, unknown>; caller: Actor }) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
  const routes: { method: string; template: string; pattern: string[]; app?: true; handle: Handler }[] = [];
  /** `{name+}` takes the rest of the path (a ref or a file path, with or without encoded slashes). */
  function route(method: string, template: string, handle: Handler, app?: true) {
    routes.push({ method, template: template.replace('+}', '}'), pattern: template.split('/').slice(1), ...(app ? { app } : {}), handle });
  }
  const ok = (body: unknown, status = 200) => ({ status, body });
  const requireRepo = (p: Record<string, string>) => {
    if (p.owner !== owner || p.repo !== repo) throw new HttpError(404, 'Not Found');
  };

  route('GET', '/app', () => ok({ id: appId, slug: appSlug, name: appSlug, node_id: 'A_1', owner: account({ login: owner, type: 'Organization' }), permissions: {}, events: [] }), true);
  route('POST', '/app/installations/{installation_id}/access_tokens', ({ params }) => {
    if (Number(params.installation_id) !== installationId) throw new HttpError(404, 'Not Found');
    const token = `ghs_${randomUUID().replace(/-/g, '')}`;
    tokens.set(token, installationId);
    return ok({ token, expires_at: new Date(Date.now() + 3_600_000).toISOString(), permissions: { contents: 'write', pull_requests: 'write', checks: 'write', metadata: 'read' }, repository_selection: 'all' }, 201);
  }, true);

  route('GET', '/repos/{owner}/{repo}/git/ref/{ref+}', ({ params }) => {
    requireRepo(params);
    const name = `refs/${params.ref}`;
    const sha = refs.get(name);
    if (!sha) throw new HttpError(404, 'Not Found');
    return ok(refShape(name, sha));
  });
  route('POST', '/repos/{owner}/{repo}/git/refs', ({ params, body }) => {
    requireRepo(params);
    const name = String(body.ref);
    const sha = String(body.sha);
    if (!/^refs\/[^/]+\/.+/.test(name)) throw new HttpError(422, 'Reference name must start with \'refs/\' and have at least two slashes.');
    if (!get(sha, 'commit')) throw new HttpError(422, 'Object does not exist');
    if (refs.has(name)) throw new HttpError(422, 'Reference already exists');
    void setRef(name, sha, bot);
    return ok(refShape(name, sha), 201);
  });
  route('PATCH', '/repos/{owner}/{repo}/git/refs/{ref+}', ({ params, body }) => {
    requireRepo(params);
    const name = `refs/${params.ref}`;
    const current = refs.get(name);
    const sha = String(body.sha);
    if (!current) throw new HttpError(422, 'Reference does not exist');
    if (!get(sha, 'commit')) throw new HttpError(422, 'Object does not exist');
    if (body.force !== true && !ancestors(sha).has(current)) throw new HttpError(422, 'Update is not a fast forward');
    void setRef(name, sha, bot);
    return ok(refShape(name, sha));
  });
  route('DELETE', '/repos/{owner}/{repo}/git/refs/{ref+}', ({ params }) => {
    requireRepo(params);
    const name = `refs/${params.ref}`;
    if (!refs.has(name)) throw new HttpError(422, 'Reference does not exist');
    void setRef(name, null, bot);
    return ok(null, 204);
  });

  route('POST', '/repos/{owner}/{repo}/git/blobs', ({ params, body }) => {
    requireRepo(params);
    const encoding = body.encoding ?? 'utf-8';
    const content = encoding === 'base64' ? Buffer.from(String(body.content), 'base64') : Buffer.from(String(body.content), 'utf8');
    const sha = put({ type: 'blob', content });
    return ok({ sha, url: `${apiUrl}/repos/${fullName}/git/blobs/${sha}` }, 201);
  });
  route('GET', '/repos/{owner}/{repo}/git/blobs/{file_sha}', ({ params }) => {
    requireRepo(params);
    const blob = get(params.file_sha!, 'blob');
    if (!blob) throw new HttpError(404, 'Not Found');
    return ok({ sha: params.file_sha, node_id: 'B_1', size: blob.content.byteLength, url: '', content: blob.content.toString('base64'), encoding: 'base64' });
  });
  route('POST', '/repos/{owner}/{repo}/git/trees', ({ params, body }) => {
    requireRepo(params);
    const files = new Map<string, FlatEntry>();
    if (body.base_tree !== undefined) {
      const base = String(body.base_tree);
      if (!get(base, 'tree')) throw new HttpError(422, 'GitRPC::BadObjectState');
      for (const [path, e] of filesOnly(flatten(base))) files.set(path, e);
    }
    for (const raw of body.tree as { path: string; mode: Mode; type: 'blob' | 'tree' | 'commit'; sha?: string | null; content?: string }[]) {
      const under = (p: string) => p === raw.path || p.startsWith(`${raw.path}/`);
      if (raw.sha === null) {
        for (const p of [...files.keys()]) if (under(p)) files.delete(p);
        continue;
      }
      const sha = raw.content !== undefined ? put({ type: 'blob', content: Buffer.from(raw.content, 'utf8') }) : String(raw.sha);
      if (raw.type === 'tree') {
        if (!get(sha, 'tree')) throw new HttpError(422, `tree.sha ${sha} is not a valid tree`);
        for (const p of [...files.keys()]) if (under(p)) files.delete(p);
        for (const [p, e] of filesOnly(flatten(sha))) files.set(`${raw.path}/${p}`, e);
      } else {
        if (raw.type === 'blob' && !get(sha, 'blob')) throw new HttpError(422, `tree.sha ${sha} is not a valid blob`);
        for (const p of [...files.keys()]) if (p.startsWith(`${raw.path}/`)) files.delete(p);
        files.set(raw.path, { mode: raw.mode, type: raw.type, sha });
      }
    }
    const sha = buildTree(files);
    const top = get(sha, 'tree')!.entries.map((e) => ({ path: e.name, mode: e.mode, type: e.type, sha: e.sha, url: '' }));
    return ok({ sha, url: `${apiUrl}/repos/${fullName}/git/trees/${sha}`, tree: top, truncated: false }, 201);
  });
  route('GET', '/repos/{owner}/{repo}/git/trees/{tree_sha}', ({ params, query }) => {
    requireRepo(params);
    const given = params.tree_sha!;
    const commit = resolve(given);
    const treeSha = commit ? commitOf(commit).tree : get(given, 'tree') ? given : undefined;
    if (!treeSha) throw new HttpError(404, 'Not Found');
    const recursive = query.has('recursive');
    const entries = recursive ? [...flatten(treeSha)] : get(treeSha, 'tree')!.entries.map((e) => [e.name, e] as const);
    const tree = entries.map(([path, e]) => {
      const size = e.type === 'blob' ? get(e.sha, 'blob')!.content.byteLength : undefined;
      return { path, mode: e.mode, type: e.type, sha: e.sha, ...(size !== undefined ? { size } : {}), url: '' };
    });
    return ok({ sha: treeSha, url: `${apiUrl}/repos/${fullName}/git/trees/${treeSha}`, tree, truncated: false });
  });
  route('POST', '/repos/{owner}/{repo}/git/commits', ({ params, body, caller }) => {
    requireRepo(params);
    const tree = String(body.tree);
    if (!get(tree, 'tree')) throw new HttpError(422, 'Tree SHA does not exist');
    const parents = (body.parents as string[] | undefined) ?? [];
    for (const p of parents) if (!get(p, 'commit')) throw new HttpError(422, 'Parent SHA does not exist or is not a commit object');
    const sha = makeCommit(parents, tree, String(body.message), caller);
    return ok(gitCommitShape(sha), 201);
  });
  route('GET', '/repos/{owner}/{repo}/git/commits/{commit_sha}', ({ params }) => {
    requireRepo(params);
    return ok(gitCommitShape(params.commit_sha!));
  });
  const restCommitShape = (sha: string, withFiles: boolean) => {
    const c = commitOf(sha);
    const user = (a: Actor) => (a.login ? account(a) : null);
    const d = withFiles ? diff(c.parents[0] ? commitOf(c.parents[0]).tree : null, c.tree) : undefined;
    return {
      sha, node_id: 'C_1', url: `${apiUrl}/repos/${fullName}/commits/${sha}`, html_url: `${htmlBase}/commit/${sha}`, comments_url: '',
      commit: { ...gitCommitShape(sha), comment_count: 0 }, author: user(c.author), committer: user(c.committer),
      parents: c.parents.map((p) => ({ sha: p, url: '', html_url: '' })),
      ...(d
        ? { files: [...d.added.map((f) => ({ filename: f, status: 'added' })), ...d.modified.map((f) => ({ filename: f, status: 'modified' })), ...d.removed.map((f) => ({ filename: f, status: 'removed' }))].map((f) => ({ ...f, sha: ZERO_SHA, additions: 0, deletions: 0, changes: 0, blob_url: '', raw_url: '', contents_url: '' })) }
        : {}),
    };
  };
  route('GET', '/repos/{owner}/{repo}/commits/{ref}', ({ params }) => {
    requireRepo(params);
    const sha = resolve(params.ref!);
    if (!sha) throw new HttpError(422, `No commit found for SHA: ${params.ref}`);
    return ok(restCommitShape(sha, true));
  });
  /** Newest first, as GitHub lists them; `sha` names the branch or commit to start from. */
  route('GET', '/repos/{owner}/{repo}/commits', ({ params, query }) => {
    requireRepo(params);
    const start = resolve(query.get('sha') ?? defaultBranch);
    if (!start) throw new HttpError(404, 'Not Found');
    const perPage = Number(query.get('per_page') ?? 30);
    return ok(between(null, start).reverse().slice(0, perPage).map((sha) => restCommitShape(sha, false)));
  });
  route('GET', '/repos/{owner}/{repo}/contents/{path+}', ({ params, query }) => {
    requireRepo(params);
    const commit = resolve(query.get('ref') ?? defaultBranch);
    if (!commit) throw new HttpError(404, `No commit found for the ref ${query.get('ref') ?? defaultBranch}`);
    const path = params.path!.replace(/\/+$/, '');
    const entry = flatten(commitOf(commit).tree).get(path);
    if (!entry) throw new HttpError(404, 'Not Found');
    const item = (p: string, e: FlatEntry) => ({
      type: e.type === 'tree' ? 'dir' : e.type === 'commit' ? 'submodule' : 'file', name: p.split('/').pop(), path: p, sha: e.sha,
      size: e.type === 'blob' ? get(e.sha, 'blob')!.content.byteLength : 0,
      url: `${apiUrl}/repos/${fullName}/contents/${p}`, git_url: `${apiUrl}/repos/${fullName}/git/blobs/${e.sha}`, html_url: `${htmlBase}/blob/${commit}/${p}`, download_url: null,
      _links: { self: '', git: '', html: '' },
    });
    if (entry.type === 'tree') {
      return ok([...flatten(entry.sha)].filter(([p]) => !p.includes('/')).map(([p, e]) => item(`${path}/${p}`, e)));
    }
    const content = get(entry.sha, 'blob')!.content;
    const inline = content.byteLength <= CONTENTS_INLINE_LIMIT;
    return ok({ ...item(path, entry), encoding: inline ? 'base64' : 'none', content: inline ? content.toString('base64').replace(/.{60}/g, '$&\n') : '' });
  });
  route('GET', '/repos/{owner}/{repo}/compare/{basehead}', ({ params, query }) => {
    requireRepo(params);
    const [baseRef, headRef] = params.basehead!.split('...');
    const base = baseRef ? resolve(baseRef) : undefined;
    const head = headRef ? resolve(headRef) : undefined;
    if (!base || !head) throw new HttpError(404, 'Not Found');
    const ahead = between(base, head);
    const behind = between(head, base);
    const baseAncestors = ancestors(base);
    const mergeBase = [...ancestors(head)].filter((s) => baseAncestors.has(s)).sort((a, b) => commitOf(b).date - commitOf(a).date)[0];
    const perPage = Number(query.get('per_page') ?? 250);
    const d = diff(mergeBase ? commitOf(mergeBase).tree : null, commitOf(head).tree);
    const commitShape = (sha: string) => {
      const c = commitOf(sha);
      return { sha, node_id: 'C_1', url: '', html_url: `${htmlBase}/commit/${sha}`, comments_url: '', commit: gitCommitShape(sha), author: c.author.login ? account(c.author as Actor & { login: string }) : null, committer: c.committer.login ? account(c.committer as Actor & { login: string }) : null, parents: c.parents.map((p) => ({ sha: p, url: '' })) };
    };
    return ok({
      url: '', html_url: '', permalink_url: '', diff_url: '', patch_url: '',
      base_commit: commitShape(base), merge_base_commit: mergeBase ? commitShape(mergeBase) : null,
      status: ahead.length === 0 && behind.length === 0 ? 'identical' : behind.length === 0 ? 'ahead' : ahead.length === 0 ? 'behind' : 'diverged',
      ahead_by: ahead.length, behind_by: behind.length, total_commits: ahead.length,
      commits: ahead.slice(0, perPage).map(commitShape),
      files: [...d.added.map((f) => ({ filename: f, status: 'added' })), ...d.modified.map((f) => ({ filename: f, status: 'modified' })), ...d.removed.map((f) => ({ filename: f, status: 'removed' }))]
        .map((f) => ({ ...f, sha: ZERO_SHA, additions: 0, deletions: 0, changes: 0, blob_url: '', raw_url: '', contents_url: '' })),
    });
  });

  route('GET', '/repos/{owner}/{repo}/pulls', ({ params, query }) => {
    requireRepo(params);
    const state = query.get('state') ?? 'open';
    const head = query.get('head');
    const base = query.get('base');
    return ok(
      pulls
        .filter((pr) => state === 'all' || pr.state === state)
        .filter((pr) => head === null || head === `${owner}:${pr.head}`)
        .filter((pr) => base === null || base === pr.base)
        .reverse()
        .map(pullShape),
    );
  });
  route('POST', '/repos/{owner}/{repo}/pulls', ({ params, body, caller }) => {
    requireRepo(params);
    const head = String(body.head).replace(`${owner}:`, '');
    const base = String(body.base);
    const headSha = resolve(head);
    const baseSha = resolve(base);
    if (!headSha || !baseSha) throw new HttpError(422, 'Validation Failed', { errors: [{ resource: 'PullRequest', field: headSha ? 'base' : 'head', code: 'invalid' }] });
    if (pulls.some((pr) => pr.state === 'open' && pr.head === head && pr.base === base)) {
      throw new HttpError(422, 'Validation Failed', { errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${owner}:${head}.` }] });
    }
    if (between(baseSha, headSha).length === 0) throw new HttpError(422, 'Validation Failed', { errors: [{ resource: 'PullRequest', code: 'custom', message: `No commits between ${base} and ${head}` }] });
    const pr: PullRequest = { number: nextNumber++, state: 'open', title: String(body.title), body: (body.body as string | undefined) ?? null, head, base, user: caller.login!, merged: false };
    pulls.push(pr);
    return ok(pullShape(pr), 201);
  });
  route('PATCH', '/repos/{owner}/{repo}/pulls/{pull_number}', ({ params, body }) => {
    requireRepo(params);
    const pr = pulls.find((p) => p.number === Number(params.pull_number));
    if (!pr) throw new HttpError(404, 'Not Found');
    if (typeof body.title === 'string') pr.title = body.title;
    if (typeof body.body === 'string') pr.body = body.body;
    if (body.state === 'open' || body.state === 'closed') pr.state = body.state;
    return ok(pullShape(pr));
  });
  route('GET', '/repos/{owner}/{repo}/issues/{issue_number}/comments', ({ params }) => {
    requireRepo(params);
    return ok(comments.filter((c) => c.issue === Number(params.issue_number)).map((c) => ({ id: c.id, body: c.body, user: account(c.user), html_url: `${htmlBase}/pull/${c.issue}#issuecomment-${c.id}` })));
  });
  route('POST', '/repos/{owner}/{repo}/issues/{issue_number}/comments', ({ params, body, caller }) => {
    requireRepo(params);
    const issue = Number(params.issue_number);
    if (!pulls.some((p) => p.number === issue)) throw new HttpError(404, 'Not Found');
    const comment: IssueComment = { id: nextId++, issue, body: String(body.body), user: { login: caller.login!, type: caller.type } };
    comments.push(comment);
    return ok({ id: comment.id, node_id: 'IC_1', body: comment.body, user: account(comment.user), html_url: `${htmlBase}/pull/${issue}#issuecomment-${comment.id}`, url: '', issue_url: '', created_at: new Date().toISOString(), updated_at: new Date().toISOString() }, 201);
  });
  route('PATCH', '/repos/{owner}/{repo}/issues/comments/{comment_id}', ({ params, body }) => {
    requireRepo(params);
    const comment = comments.find((c) => c.id === Number(params.comment_id));
    if (!comment) throw new HttpError(404, 'Not Found');
    comment.body = String(body.body);
    return ok({ id: comment.id, node_id: 'IC_1', body: comment.body, user: account(comment.user), html_url: `${htmlBase}/pull/${comment.issue}#issuecomment-${comment.id}`, url: '', issue_url: '', created_at: new Date().toISOString(), updated_at: new Date().toISOString() });
  });

  function applyCheckRun(run: CheckRun, body: Record<string, unknown>) {
    for (const key of ['name', 'external_id', 'details_url'] as const) if (typeof body[key] === 'string') (run[key] as string) = body[key];
    if (typeof body.status === 'string') run.status = body.status as CheckRun['status'];
    if (typeof body.conclusion === 'string') {
      run.conclusion = body.conclusion;
      run.status = 'completed';
    }
    const output = body.output as { title?: string; summary?: string; text?: string; annotations?: Record<string, unknown>[] } | undefined;
    if (output) {
      run.output.title = output.title ?? run.output.title;
      run.output.summary = output.summary ?? run.output.summary;
      run.output.text = output.text ?? run.output.text;
      // Each request's annotations are added to the run's, as GitHub does.
      run.output.annotations.push(...(output.annotations ?? []));
    }
  }
  route('POST', '/repos/{owner}/{repo}/check-runs', ({ params, body }) => {
    requireRepo(params);
    const headSha = String(body.head_sha);
    if (!get(headSha, 'commit')) throw new HttpError(422, `No commit found for SHA: ${headSha}`);
    const run: CheckRun = { id: nextId++, name: '', head_sha: headSha, status: 'queued', conclusion: null, external_id: null, details_url: null, output: { title: null, summary: null, text: null, annotations: [] } };
    applyCheckRun(run, body);
    checkRuns.push(run);
    return ok(checkRunShape(run), 201);
  });
  route('PATCH', '/repos/{owner}/{repo}/check-runs/{check_run_id}', ({ params, body }) => {
    requireRepo(params);
    const run = checkRuns.find((r) => r.id === Number(params.check_run_id));
    if (!run) throw new HttpError(404, 'Not Found');
    applyCheckRun(run, body);
    return ok(checkRunShape(run));
  });
  route('GET', '/repos/{owner}/{repo}/check-runs/{check_run_id}', ({ params }) => {
    requireRepo(params);
    const run = checkRuns.find((r) => r.id === Number(params.check_run_id));
    if (!run) throw new HttpError(404, 'Not Found');
    return ok(checkRunShape(run));
  });
  route('GET', '/repos/{owner}/{repo}/commits/{ref}/check-runs', ({ params, query }) => {
    requireRepo(params);
    const sha = resolve(params.ref!);
    if (!sha) throw new HttpError(422, `No commit found for SHA: ${params.ref}`);
    const name = query.get('check_name');
    const runs = checkRuns.filter((r) => r.head_sha === sha && (name === null || r.name === name)).reverse();
    return ok({ total_count: runs.length, check_runs: runs.map(checkRunShape) });
  });

  function match(method: string, segments: string[]) {
    for (const r of routes) {
      if (r.method !== method) continue;
      const params: Record<string, string> = {};
      let i = 0;
      let matched = true;
      for (const [j, part] of r.pattern.entries()) {
        if (part.endsWith('+}')) {
          const tail = segments.slice(i, segments.length - (r.pattern.length - 1 - j));
          if (tail.length === 0) matched = false;
          params[part.slice(1, -2)] = tail.map(decodeURIComponent).join('/');
          i += tail.length;
        } else if (part.startsWith('{')) {
          if (segments[i] === undefined || segments[i] === '') matched = false;
          params[part.slice(1, -1)] = decodeURIComponent(segments[i] ?? '');
          i += 1;
        } else {
          if (segments[i] !== part) matched = false;
          i += 1;
        }
        if (!matched) break;
      }
      if (matched && i === segments.length) return { r, params };
    }
    return undefined;
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large');
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'x-github-request-id': randomUUID(),
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core',
    });
    res.end(status === 204 ? undefined : json(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    try {
      if (!url.pathname.startsWith(`${STANDIN_API_PREFIX}/`)) throw new HttpError(404, `Not Found (the API lives under ${STANDIN_API_PREFIX})`);
      const path = url.pathname.slice(STANDIN_API_PREFIX.length);
      const raw = await readBody(req);
      const found = match(method, path.split('/').slice(1));
      if (!found) throw new HttpError(404, 'Not Found');
      const routeKey = `${method} ${found.r.template}`;
      const count = (counts.get(routeKey) ?? 0) + 1;
      counts.set(routeKey, count);
      const decodedPath = decodeURIComponent(path);
      for (const injection of injections) {
        if (injection.left <= 0 || !injection.at(method, decodedPath, count, found.r.template)) continue;
        injection.left -= 1;
        if (injection.do === 'fail500') throw new HttpError(500, 'Server Error (injected)');
        await injection.do();
      }
      injections = injections.filter((i) => i.left > 0);
      const shapeProblems = githubRequestProblems({ method, url: `${path}${url.search}`, body: raw });
      if (shapeProblems.length > 0) {
        problems.push(...shapeProblems);
        throw new HttpError(422, 'Invalid request.', { errors: shapeProblems });
      }
      const caller = authenticate(req, found.r.app === true);
      authorizeWorkflowToken(req, method, found.r.template);
      const body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
      const answer = await found.r.handle({ params: found.params, query: url.searchParams, body, caller });
      send(res, answer.status, answer.body);
    } catch (error) {
      if (error instanceof HttpError) return send(res, error.status, { message: error.message, documentation_url: 'https://docs.github.com/rest', status: String(error.status), ...error.extra });
      send(res, 500, { message: error instanceof Error ? error.message : String(error) });
    }
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${STANDIN_API_PREFIX}`;

  /** A person who pushes (the default sender of `push`). */
  const person = (login: string): Actor => ({ name: login, email: `${login}@example.com`, login, type: 'User' });

  function commitFiles(parent: string | null, changes: Record<string, string | Uint8Array | null>): string {
    const files = parent ? filesOnly(flatten(commitOf(parent).tree)) : new Map<string, FlatEntry>();
    for (const [path, content] of Object.entries(changes)) {
      if (content === null) files.delete(path);
      else files.set(path, { mode: files.get(path)?.mode === '100755' ? '100755' : '100644', type: 'blob', sha: put({ type: 'blob', content: Buffer.from(content) }) });
    }
    return buildTree(files);
  }

  return {
    /** The API base URL to give the App as GITHUB_API_URL. */
    apiUrl,
    owner,
    repo,
    fullName,
    bot,
    /** Requests that departed from GitHub's OpenAPI description (each was answered 422). */
    problems,
    deliveries,
    pulls,
    comments,
    checkRuns,
    /** github-actions[bot], who commits, opens pull requests and comments with a workflow token. */
    actionsBot,
    /**
     * A workflow's GITHUB_TOKEN with the job's `permissions:` (by default contents, pull-requests and issues: write);
     * a request beyond them is answered 403 "Resource not accessible by integration", as GitHub does.
     */
    grantWorkflowToken(permissions: WorkflowPermissions = { contents: 'write', pull_requests: 'write', issues: 'write' }): string {
      const token = `ghs_${randomUUID().replace(/-/g, '')}`;
      workflowTokens.set(token, permissions);
      return token;
    },
    /** The repository setting "Allow GitHub Actions to create and approve pull requests" (on by default here). */
    setActionsMayCreatePullRequests(allowed: boolean) {
      actionsMayCreatePullRequests = allowed;
    },
    /** A person's pull request of `head` into `base` (both branches of this repository), without a webhook. */
    openPullRequest(input: { head: string; base?: string; title?: string; login?: string }): PullRequest {
      const pr: PullRequest = { number: nextNumber++, state: 'open', title: input.title ?? `Merge ${input.head}`, body: null, head: input.head, base: input.base ?? defaultBranch, user: input.login ?? 'octocat', merged: false };
      pulls.push(pr);
      return pr;
    },
    /** Where `push` and `check_run` webhooks go, signed with the secret. */
    setWebhook(url: string, secret: string) {
      webhook = { url, secret };
    },
    /** Creates the repository's first commit on `branch` (no webhook), or a commit on top of it. */
    seed(files: Record<string, string | Uint8Array>, branch = defaultBranch, message = 'Initial commit'): string {
      const parent = resolve(branch) ?? null;
      const sha = makeCommit(parent ? [parent] : [], commitFiles(parent, files), message, person('octocat'));
      refs.set(`refs/heads/${branch}`, sha);
      return sha;
    },
    /**
     * A person's push: one commit on the branch's head with the changes (null deletes a file), the ref moved, and the
     * signed `push` webhook sent; resolves once the App answered the delivery.
     */
    async push(input: { branch?: string; files: Record<string, string | Uint8Array | null>; message?: string; login?: string }): Promise<{ sha: string; delivery: Delivery | undefined }> {
      const branch = input.branch ?? defaultBranch;
      const parent = resolve(branch) ?? null;
      const who = person(input.login ?? 'octocat');
      const sha = makeCommit(parent ? [parent] : [], commitFiles(parent, input.files), input.message ?? `Edit ${Object.keys(input.files).join(', ')}`, who);
      const delivery = await setRef(`refs/heads/${branch}`, sha, who);
      return { sha, delivery };
    },
    /**
     * A person merges `head` into `base` ("Create a merge commit"): a three-way merge of the files from the newest
     * common ancestor, with `resolve` giving the content of the paths both sides changed (a conflict throws without
     * it); then the base moves, the open pull request of `head` into `base` is marked merged, and the push webhook is sent.
     */
    async merge(input: { head: string; base?: string; login?: string; message?: string; resolve?: Record<string, string | null> }): Promise<{ sha: string; delivery: Delivery | undefined }> {
      const base = input.base ?? defaultBranch;
      const baseSha = resolve(base);
      const headSha = resolve(input.head);
      if (!baseSha || !headSha) throw new Error(`No branch '${baseSha ? input.head : base}' to merge`);
      const common = ancestors(headSha);
      const mergeBase = [...ancestors(baseSha)].filter((c) => common.has(c)).sort((a, b) => commitOf(b).date - commitOf(a).date)[0];
      const at = (sha: string | undefined) => (sha ? filesOnly(flatten(commitOf(sha).tree)) : new Map<string, FlatEntry>());
      const [old, ours, theirs] = [at(mergeBase), at(baseSha), at(headSha)];
      const changes: Record<string, string | Uint8Array | null> = {};
      for (const path of new Set([...ours.keys(), ...theirs.keys()])) {
        const [o, a, b] = [old.get(path)?.sha, ours.get(path)?.sha, theirs.get(path)?.sha];
        if (a === b || b === o) continue;
        if (a === o) changes[path] = b === undefined ? null : get(b, 'blob')!.content;
        else if (input.resolve && path in input.resolve) changes[path] = input.resolve[path]!;
        else throw new Error(`Merge conflict in '${path}': pass its content in 'resolve'`);
      }
      for (const [path, content] of Object.entries(input.resolve ?? {})) changes[path] = content;
      const who = person(input.login ?? 'octocat');
      const sha = makeCommit([baseSha, headSha], commitFiles(baseSha, changes), input.message ?? `Merge branch '${input.head}' into ${base}`, who);
      for (const pr of pulls) if (pr.state === 'open' && pr.head === input.head && pr.base === base) Object.assign(pr, { state: 'closed', merged: true });
      const delivery = await setRef(`refs/heads/${base}`, sha, who);
      return { sha, delivery };
    },
    /** "Re-run" on a check run: the signed `check_run.rerequested` webhook. */
    rerequest(checkRunId: number, login = 'octocat'): Promise<Delivery> {
      const run = checkRuns.find((r) => r.id === checkRunId);
      if (!run) throw new Error(`No check run ${checkRunId}`);
      return deliver('check_run', { action: 'rerequested', check_run: checkRunShape(run), repository: repository(), sender: account(person(login)), installation: { id: installationId, node_id: `I_${installationId}` } });
    },
    /** Sends a recorded delivery again with the same id, as GitHub's "Redeliver" does. */
    redeliver(id: string): Promise<Delivery> {
      const original = deliveries.find((d) => d.id === id);
      if (!original) throw new Error(`No delivery ${id}`);
      return deliver(original.event, original.payload, id);
    },
    inject(injection: Injection) {
      injections.push({ ...injection, left: injection.times ?? 1 });
    },
    /** Calls per route (`POST /repos/{owner}/{repo}/git/blobs`) since the last reset. */
    calls: {
      byRoute: (): Record<string, number> => Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b))),
      total: () => [...counts.values()].reduce((a, b) => a + b, 0),
      reset: () => counts.clear(),
    },
    /** Resolves once no webhook delivery is in flight (a delivery may cause further pushes, so it waits again). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    head(branch: string): string | undefined {
      return refs.get(`refs/heads/${branch}`);
    },
    /** The files at a branch's head (or a commit), as text. */
    files(refOrSha: string): Record<string, string> {
      const sha = resolve(refOrSha);
      if (!sha) throw new Error(`No branch or commit '${refOrSha}'`);
      return Object.fromEntries([...filesOnly(flatten(commitOf(sha).tree))].map(([p, e]) => [p, get(e.sha, 'blob')?.content.toString('utf8') ?? `(${e.type})`]));
    },
    /** Commits reachable from `head` and not from `exclude` (a branch or commit), oldest first. */
    log(head: string, exclude?: string): { sha: string; tree: string; parents: string[]; message: string; committer: Actor; author: Actor }[] {
      const headSha = resolve(head);
      if (!headSha) throw new Error(`No branch or commit '${head}'`);
      const excluded = exclude === undefined ? null : (resolve(exclude) ?? null);
      return between(excluded, headSha).map((sha) => {
        const { tree, parents, message, committer, author } = commitOf(sha);
        return { sha, tree, parents, message, committer, author };
      });
    },
    /** Commits no ref reaches: what a lost race or a force-push leaves behind. */
    unreachableCommits(): string[] {
      const reached = new Set([...refs.values()].flatMap((s) => [...ancestors(s)]));
      return [...objects].filter(([sha, o]) => o.type === 'commit' && !reached.has(sha)).map(([sha]) => sha);
    },
    branches(): string[] {
      return [...refs.keys()].filter((r) => r.startsWith('refs/heads/')).map((r) => r.slice('refs/heads/'.length)).sort();
    },
    async close(): Promise<void> {
      await this.settled();
      server.closeAllConnections();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
}

export type GithubStandin = Awaited<ReturnType<typeof startGithubStandin>>;
