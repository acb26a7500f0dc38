/**
 * The GitHub stand-in itself (test/helpers/github-standin.ts), over HTTP: git's object ids, ref semantics and the
 * status codes and messages GitHub gives, authentication, request-shape refusals, injection, the call counter and
 * signed push webhooks. The App's tests rely on each of these behaving like GitHub.
 */
import { createHmac, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gitBlobSha } from '../../server/github-app/translation-pr.js';
import { appPrivateKey } from '../fixtures/github/repository.js';
import { startGithubStandin, type GithubStandin } from '../helpers/github-standin.js';

const APP_ID = 77;
const key = appPrivateKey();
let github: GithubStandin;
let token: string;
let receiver: Server;
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

function jwt(iss: number): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const unsigned = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iat: now - 60, exp: now + 540, iss })}`;
  return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), key).toString('base64url')}`;
}

async function call(method: string, path: string, body?: unknown, auth: string | null = `token ${token}`) {
  const res = await fetch(`${github.apiUrl}${path}`, {
    method,
    headers: { accept: 'application/vnd.github+json', ...(auth ? { authorization: auth } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> & { message?: string } };
}

beforeAll(async () => {
  github = await startGithubStandin({ owner: 'acme', repo: 'shop', installationId: 9, appId: APP_ID, appSlug: 'parlance-test', appPrivateKey: key });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await github.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

it('gives commits and trees the ids git gives them (checked against `git write-tree` and `git commit-tree`)', () => {
  // git orders 'a.txt' before the directory 'a' ('.' < '/'); the first commit is dated 1767225601 +0000.
  const sha = github.seed({ 'a/b/x.txt': 'hello\n', 'z.md': 'top', 'a.txt': 'q' }, 'main', 'Initial commit');
  expect(sha).toBe('89852ec6b831a23c851b53d5d0985ca028ad5447');
  expect(github.log('main')).toEqual([expect.objectContaining({ sha, tree: '0672a6687fcc29365b6ef76947a1dd61f881ae12', parents: [] })]);
});

it('answers the App endpoints only with a JWT signed by the App key, and the repository only with an installation token', async () => {
  expect((await call('GET', '/app', undefined, null)).status).toBe(401);
  expect((await call('GET', '/app', undefined, `Bearer ${jwt(APP_ID + 1)}`)).status).toBe(401);
  expect((await call('GET', '/app', undefined, `Bearer ${jwt(APP_ID)}`)).body).toMatchObject({ slug: 'parlance-test' });
  expect((await call('POST', '/app/installations/10/access_tokens', undefined, `Bearer ${jwt(APP_ID)}`)).status).toBe(404);
  const issued = await call('POST', '/app/installations/9/access_tokens', undefined, `Bearer ${jwt(APP_ID)}`);
  expect(issued.status).toBe(201);
  token = issued.body.token as string;
  expect((await call('GET', '/repos/acme/shop/git/ref/heads%2Fmain', undefined, 'token ghs_forged')).body.message).toBe('Bad credentials');
  expect((await call('GET', '/repos/acme/shop/git/ref/heads%2Fmain')).body).toMatchObject({ ref: 'refs/heads/main', object: { sha: github.head('main') } });
  expect((await call('GET', '/repos/acme/shop/git/ref/heads%2Fnope')).status).toBe(404);
});

it('builds blobs, a tree on a base tree and a commit, and moves refs only forward unless forced', async () => {
  github.calls.reset();
  const main = github.head('main')!;
  const baseTree = github.log('main')[0]!.tree;
  const blob = await call('POST', '/repos/acme/shop/git/blobs', { content: Buffer.from('bonjour\n').toString('base64'), encoding: 'base64' });
  expect(blob).toMatchObject({ status: 201, body: { sha: gitBlobSha(Buffer.from('bonjour\n')) } });
  const tree = await call('POST', '/repos/acme/shop/git/trees', { base_tree: baseTree, tree: [{ path: 'a/b/fr.txt', mode: '100644', type: 'blob', sha: blob.body.sha }, { path: 'z.md', mode: '100644', type: 'blob', sha: null }] });
  expect(tree.status).toBe(201);
  const commit = await call('POST', '/repos/acme/shop/git/commits', { message: 'Add fr', tree: tree.body.sha, parents: [main] });
  expect(commit.status).toBe(201);
  const listing = await call('GET', `/repos/acme/shop/git/trees/${commit.body.sha as string}?recursive=1`);
  expect((listing.body.tree as { path: string }[]).map((e) => e.path)).toEqual(['a.txt', 'a', 'a/b', 'a/b/fr.txt', 'a/b/x.txt']);

  expect((await call('POST', '/repos/acme/shop/git/refs', { ref: 'refs/heads/main', sha: commit.body.sha })).body.message).toBe('Reference already exists');
  expect((await call('POST', '/repos/acme/shop/git/refs', { ref: 'refs/heads/parlance/main', sha: commit.body.sha })).status).toBe(201);
  const files = await call('GET', '/repos/acme/shop/contents/a%2Fb%2Ffr.txt?ref=parlance%2Fmain');
  expect(Buffer.from(files.body.content as string, 'base64').toString()).toBe('bonjour\n');

  // A person's commit on main: the branch's commit does not descend from it.
  const person = await github.push({ files: { 'z.md': 'changed' }, message: 'Edit z' });
  expect((await call('PATCH', '/repos/acme/shop/git/refs/heads%2Fmain', { sha: commit.body.sha, force: false })).body.message).toBe('Update is not a fast forward');
  expect(github.head('main')).toBe(person.sha);
  expect((await call('PATCH', '/repos/acme/shop/git/refs/heads%2Fparlance%2Fmain', { sha: main, force: false })).body.message).toBe('Update is not a fast forward');
  expect((await call('PATCH', '/repos/acme/shop/git/refs/heads%2Fparlance%2Fmain', { sha: main, force: true })).status).toBe(200);
  expect(github.unreachableCommits()).toEqual([commit.body.sha]);

  const compare = await call('GET', `/repos/acme/shop/compare/${main}...${person.sha}?per_page=100`);
  expect(compare.body).toMatchObject({ status: 'ahead', ahead_by: 1, behind_by: 0, commits: [{ sha: person.sha, committer: { login: 'octocat', type: 'User' } }] });
  expect(github.calls.byRoute()).toMatchObject({ 'POST /repos/{owner}/{repo}/git/refs': 2, 'PATCH /repos/{owner}/{repo}/git/refs/{ref}': 3, 'POST /repos/{owner}/{repo}/git/blobs': 1 });
});

it("refuses what GitHub's OpenAPI description does not allow, a duplicate or empty pull request, and a check run on an unknown commit", async () => {
  const bad = await call('POST', '/repos/acme/shop/git/trees', { tree: [{ path: 'x', mode: '100600', type: 'blob', sha: 'abc' }] });
  expect(bad.status).toBe(422);
  expect(github.problems.splice(0)).toEqual([expect.stringContaining('POST /repos/{owner}/{repo}/git/trees: the body does not match')]);
  expect((await call('POST', '/repos/acme/shop/pulls', { head: 'parlance/main', base: 'main', title: 't' })).body).toMatchObject({ status: '422', errors: [{ message: 'No commits between main and parlance/main' }] });
  await github.push({ branch: 'parlance/main', files: { 'de.txt': 'hallo' }, login: 'translator' });
  const pr = await call('POST', '/repos/acme/shop/pulls', { head: 'parlance/main', base: 'main', title: 't', body: 'b' });
  expect(pr.status).toBe(201);
  expect((await call('POST', '/repos/acme/shop/pulls', { head: 'parlance/main', base: 'main', title: 't' })).body).toMatchObject({ errors: [{ message: 'A pull request already exists for acme:parlance/main.' }] });
  expect((await call('GET', '/repos/acme/shop/pulls?head=acme%3Aparlance%2Fmain&state=open')).body).toEqual([expect.objectContaining({ number: pr.body.number })]);
  expect((await call('POST', '/repos/acme/shop/check-runs', { name: 'x', head_sha: 'f'.repeat(40) })).body.message).toBe(`No commit found for SHA: ${'f'.repeat(40)}`);
  expect(github.problems).toEqual([]);
});

it('fails a chosen call with 500 or runs something before it, once, counting calls per route', async () => {
  github.calls.reset();
  const ran: string[] = [];
  github.inject({ at: (method, path, count) => method === 'POST' && path.endsWith('/git/blobs') && count === 2, do: 'fail500' });
  github.inject({ at: (method, _path, _count, route) => method === 'GET' && route === '/repos/{owner}/{repo}/git/ref/{ref}', do: async () => void ran.push('before') });
  const blob = { content: 'x', encoding: 'utf-8' };
  expect((await call('POST', '/repos/acme/shop/git/blobs', blob)).status).toBe(201);
  expect((await call('POST', '/repos/acme/shop/git/blobs', blob)).status).toBe(500);
  expect((await call('POST', '/repos/acme/shop/git/blobs', blob)).status).toBe(201);
  await call('GET', '/repos/acme/shop/git/ref/heads%2Fmain');
  await call('GET', '/repos/acme/shop/git/ref/heads%2Fmain');
  expect(ran).toEqual(['before']);
  expect(github.calls.byRoute()).toEqual({ 'GET /repos/{owner}/{repo}/git/ref/{ref}': 2, 'POST /repos/{owner}/{repo}/git/blobs': 3 });
});

it('sends signed push webhooks with the commits and their changed paths, and redelivers with the same id', async () => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  github.setWebhook(url, 's3cret');
  const before = github.head('main');
  const pushed = await github.push({ files: { 'z.md': null, 'new.txt': 'n', 'a.txt': 'q2' }, login: 'octocat' });
  expect(pushed.delivery?.status).toBe(200);
  const [hit] = received.splice(0);
  expect(hit!.headers['x-github-event']).toBe('push');
  expect(hit!.headers['x-hub-signature-256']).toBe(`sha256=${createHmac('sha256', 's3cret').update(hit!.body).digest('hex')}`);
  const payload = JSON.parse(hit!.body) as Record<string, unknown>;
  expect(payload).toMatchObject({ ref: 'refs/heads/main', before, after: pushed.sha, forced: false, sender: { login: 'octocat', type: 'User' }, installation: { id: 9 }, repository: { full_name: 'acme/shop' } });
  expect(payload.commits).toEqual([expect.objectContaining({ id: pushed.sha, added: ['new.txt'], modified: ['a.txt'], removed: ['z.md'] })]);
  const single = await call('GET', `/repos/acme/shop/commits/${pushed.sha}`);
  expect(single.body).toMatchObject({ sha: pushed.sha, committer: { login: 'octocat' }, parents: [{ sha: before }] });
  expect((single.body.files as { filename: string; status: string }[]).map((f) => `${f.status} ${f.filename}`).sort()).toEqual(['added new.txt', 'modified a.txt', 'removed z.md']);
  const listed = await call('GET', '/repos/acme/shop/commits?sha=main&per_page=2');
  expect((listed.body as unknown as { sha: string }[]).map((c) => c.sha)).toEqual([pushed.sha, before]);
  await github.redeliver(pushed.delivery!.id);
  expect(received.splice(0).map((r) => r.headers['x-github-delivery'])).toEqual([pushed.delivery!.id]);
});
