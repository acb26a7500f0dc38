/**
 * The source-code connector's remote systems: a local GitHub REST API (the read-only Git data endpoints it uses) over
 * the code hosts' in-memory git repository (git-store.ts), and the GitLab mock (gitlab.ts) with the same code committed;
 * plus the application code both hold, in which SEED's strings are keys with their default text in four conventions.
 *
 * GitHub shapes taken from docs.github.com/rest: repos/repos#get-a-repository (`default_branch`, `full_name`),
 * git/trees#get-a-tree (`{sha, url, tree: [{path, mode, type, sha, size, url}], truncated}`, `size` on blobs only,
 * `recursive` taking any value), git/blobs#get-a-blob (`{sha, node_id, size, url, content, encoding: "base64"}`, the
 * content wrapped at 60 characters as GitHub sends it), the 401 body `{"message":"Bad credentials",
 * "documentation_url":"https://docs.github.com/rest","status":"401"}` and the 404 `{"message":"Not Found", …}`, and
 * webhooks/webhook-events-and-payloads#push with X-Hub-Signature-256 (`sha256=` + HMAC-SHA256 hex of the body).
 * Guessed: the 404 for a ref the repository does not have (the docs list 404 and 422 for Get a tree without saying
 * which a missing ref gets); the 429 body (GitHub's secondary rate limit answers 403 or 429 with a message, modelled
 * as 429 with Retry-After).
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { RemoteFixture } from '../connector-kit.js';
import { SEED } from '../connector-kit.js';
import { serveAnswers, segments, type Answer, type AnsweringServer } from './answering.js';
import { blobSha, GitStore, MARIA, seedFiles } from './git-store.js';
import { startGitlabMock, type GitlabMock } from './gitlab.js';

const encoder = new TextEncoder();

/** SEED's ids → their default text in the code, in SEED's order. */
export type CodeTexts = Record<string, string>;

const quote = (text: string) => JSON.stringify(text);

/**
 * The application's code: SEED's strings as keys in i18next (t with a default, t with defaultValue, <Trans>) and
 * react-intl (defineMessages), with a dynamic key, a message without an id, a test file and a bundle `include`
 * matches but the connector must not read.
 */
export function codeFiles(texts: CodeTexts): Record<string, string> {
  const [welcome, cart, checkout, farewell] = SEED.map((s) => texts[s.id]!);
  return {
    'src/App.tsx': `import { Trans, useTranslation } from 'react-i18next';

export function App({ items, section }: { items: string[]; section: string }) {
  const { t } = useTranslation();
  return (
    <main>
      <h1>{t('welcome', ${quote(welcome!)})}</h1>
      {items.length === 0 && <p>{t('cart', { defaultValue: ${quote(cart!)} })}</p>}
      <Trans i18nKey="checkout">${checkout}</Trans>
      <nav>{t(\`nav.\${section}\`)}</nav>
    </main>
  );
}
`,
    'src/messages.ts': `import { defineMessages } from 'react-intl';

export const messages = defineMessages({
  farewell: {
    id: 'farewell',
    defaultMessage: ${quote(farewell!)},
    description: 'Shown when the customer leaves the store',
  },
  banner: { defaultMessage: 'Summer sale' },
});
`,
    'src/App.test.tsx': "import { t } from 'i18next';\nit('renders', () => expect(t('test.only', 'Only in a test')).toBeTruthy());\n",
    'src/vendor/bundle.min.js': `/* a bundled library */${'var a=1;'.repeat(70_000)}t("bundled.key","In a bundle");\n`,
  };
}

export const SEED_TEXTS: CodeTexts = Object.fromEntries(SEED.map((s) => [s.id, s.source]));

export interface GithubCodeMock extends AnsweringServer {
  apiUrl: string;
  token: string;
  repository: string;
  store: GitStore;
  /** GitHub's push event for the last commit on main, signed with `secret`. */
  pushEvent(secret: string, ref?: string): { headers: Record<string, string>; body: string };
}

const GITHUB_TOKEN = 'github_pat_11AAKIT0123456789abcdefghijklmnopqrstuvwxyz';

export async function startGithubCodeMock(files: Record<string, string>, options: { truncated?: boolean } = {}): Promise<GithubCodeMock> {
  const repository = 'acme/shop';
  const store = new GitStore(files);
  let origin = '';
  const docs = 'https://docs.github.com/rest';
  const notFound = (page: string): Answer => ({ status: 404, body: { message: 'Not Found', documentation_url: `${docs}/${page}`, status: '404' } });

  const server = await serveAnswers(
    (request) => {
      const auth = request.headers.authorization;
      if (auth !== `Bearer ${GITHUB_TOKEN}` && auth !== `token ${GITHUB_TOKEN}`) return { status: 401, body: { message: 'Bad credentials', documentation_url: docs, status: '401' } };
      const parts = segments(request.path);
      if (parts[0] !== 'repos' || `${parts[1]}/${parts[2]}` !== repository || request.method !== 'GET') return notFound('repos/repos#get-a-repository');
      const base = `${origin}/repos/${repository}`;
      if (parts.length === 3) {
        return { status: 200, body: { id: 1296269, node_id: 'MDEwOlJlcG9zaXRvcnkxMjk2MjY5', name: 'shop', full_name: repository, private: true, owner: { login: 'acme', id: 1, type: 'Organization' }, html_url: `https://github.com/${repository}`, default_branch: 'main', visibility: 'private' } };
      }
      if (parts[3] === 'git' && parts[4] === 'trees' && parts.length === 6) {
        const commit = store.resolve(parts[5]!);
        if (!commit) return notFound('git/trees#get-a-tree');
        const recursive = request.query.has('recursive');
        const entries = store.treeEntries(commit.id).filter((e) => recursive || !e.path.includes('/'));
        const tree = entries.map((e) => ({ path: e.path, mode: e.type === 'tree' ? '040000' : '100644', type: e.type, sha: e.sha, ...(e.type === 'blob' ? { size: e.size } : {}), url: `${base}/git/${e.type}s/${e.sha}` }));
        const sha = blobSha(encoder.encode(`tree of ${commit.id}`));
        return { status: 200, body: { sha, url: `${base}/git/trees/${sha}`, tree: options.truncated ? tree.slice(0, 2) : tree, truncated: options.truncated === true } };
      }
      if (parts[3] === 'git' && parts[4] === 'blobs' && parts.length === 6) {
        const sha = parts[5]!;
        const content = [...store.commits.values()].flatMap((c) => [...c.files.values()]).find((bytes) => blobSha(bytes) === sha);
        if (!content) return notFound('git/blobs#get-a-blob');
        const base64 = Buffer.from(content).toString('base64').replace(/(.{60})/g, '$1\n');
        return { status: 200, body: { sha, node_id: `B_${sha.slice(0, 16)}`, size: content.byteLength, url: `${base}/git/blobs/${sha}`, content: base64, encoding: 'base64' } };
      }
      return notFound('git');
    },
    (retryAfter) => ({ status: 429, headers: { 'Retry-After': String(retryAfter), 'X-RateLimit-Remaining': '0' }, body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: docs, status: '429' } }),
  );
  origin = server.url;

  return {
    ...server,
    apiUrl: server.url,
    token: GITHUB_TOKEN,
    repository,
    store,
    pushEvent(secret, ref = 'refs/heads/main') {
      const head = store.head('main')!;
      const commit = store.commit(head)!;
      const body = JSON.stringify({
        ref,
        before: commit.parents[0] ?? '0000000000000000000000000000000000000000',
        after: head,
        repository: { id: 1296269, name: 'shop', full_name: repository, private: true, default_branch: 'main', master_branch: 'main' },
        pusher: { name: MARIA.username, email: MARIA.email },
        sender: { login: MARIA.username, id: 4, type: 'User' },
        created: false,
        deleted: false,
        forced: false,
        commits: [{ id: head, message: commit.message, timestamp: commit.timestamp, author: { name: MARIA.name, email: MARIA.email, username: MARIA.username }, ...store.changedPaths(head), removed: [] }],
        head_commit: { id: head, message: commit.message, timestamp: commit.timestamp },
      });
      const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
      return { headers: { 'Content-Type': 'application/json', 'User-Agent': 'GitHub-Hookshot/4d7e2ef', 'X-GitHub-Event': 'push', 'X-GitHub-Delivery': randomUUID(), 'X-GitHub-Hook-ID': '503221', 'X-Hub-Signature-256': signature }, body };
    },
  };
}

/** The kit's repository (parlance.yml, locales/en.json holding SEED) with the application code. */
export function repositoryFiles(texts: CodeTexts = SEED_TEXTS): Record<string, string> {
  return seedFiles(codeFiles(texts));
}

/** A person rewording one key's default text in the code and pushing it. */
function commitTexts(store: GitStore, texts: CodeTexts, message: string): void {
  store.commitTo('main', new Map(Object.entries(codeFiles(texts)).map(([path, text]) => [path, encoder.encode(text)])), message, MARIA);
}

/**
 * A person's commit on main changing files (`null` removes one). A removal is a commit of the whole tree as it is to be,
 * since the store's commits only add or change files.
 */
export function commitFiles(store: GitStore, changes: Record<string, string | null>, message: string): void {
  const files = new Map(store.commit(store.head('main')!)!.files);
  for (const [path, text] of Object.entries(changes)) {
    if (text === null) files.delete(path);
    else files.set(path, encoder.encode(text));
  }
  const removes = Object.values(changes).includes(null);
  store.commitTo('main', files, message, MARIA, removes ? null : undefined);
}

/** The GitLab mock holding the same application code on main. */
export async function startGitlabCodeMock(texts: CodeTexts = SEED_TEXTS): Promise<GitlabMock> {
  const mock = await startGitlabMock();
  commitTexts(mock.store, texts, 'Add the application');
  return mock;
}

/** The acceptance scenario's view: the GitHub mock; nothing is ever written, so the repository holds no translations. */
export async function sourceCodeFixture(): Promise<RemoteFixture> {
  const texts = { ...SEED_TEXTS };
  const mock = await startGithubCodeMock(repositoryFiles(texts));
  return {
    connector: 'source_code',
    settings: { host: 'github', api_url: mock.apiUrl, repository: mock.repository },
    secrets: { token: mock.token },
    badSecrets: { token: 'github_pat_revoked0000000000000000000000' },
    async setSource(id, text) {
      texts[id] = text;
      commitTexts(mock.store, texts, `Reword '${id}'`);
    },
    async translation() {
      return undefined;
    },
    async sourceCount() {
      return Object.keys(texts).length;
    },
    webhook: (secret) => mock.pushEvent(secret),
    stop: () => mock.stop(),
    start: () => mock.start(),
    close: () => mock.close(),
  };
}
