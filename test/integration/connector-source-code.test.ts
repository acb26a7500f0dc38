/** The source-code connector against local GitHub and GitLab APIs: keys found in code, the source-file report, bounds, refusals, webhooks. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import packageJson from '../../package.json' with { type: 'json' };
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StringUnit } from '../../server/integrations/connector.js';
import type { JsonValue, Listing } from '../../server/integrations/connector.js';
import { sourceCode, MAX_CACHE_BYTES, MAX_CODE_FILES } from '../../server/integrations/connectors/source-code.js';
import { connectorAcceptance } from '../helpers/connector-kit.js';
import { fillerFiles, PARLANCE_YML } from '../helpers/connector-mocks/git-store.js';
import type { GitlabMock } from '../helpers/connector-mocks/gitlab.js';
import { commitFiles, repositoryFiles, sourceCodeFixture, startGithubCodeMock, startGitlabCodeMock, type GithubCodeMock } from '../helpers/connector-mocks/source-code.js';
import { connectorContext, rejection } from '../helpers/connector-unit.js';

/** The kit's repository with a source file that has drifted from the code: a reworded key, a key gone, a key no code uses. */
function driftedRepository(): Record<string, string> {
  return {
    ...repositoryFiles(),
    'locales/en.json': `${JSON.stringify({ welcome: 'Welcome!', cart: 'Your cart is empty', checkout: 'Proceed to checkout', 'legacy.title': 'Old title', 'profile.name': 'Your name' }, null, 2)}\n`,
    'src/Profile.tsx': "import { useTranslation } from 'react-i18next';\n\nexport const Profile = () => {\n  const { t } = useTranslation();\n  return <dl><dt>{t('profile.name')}</dt><dd>{t('profile.bio')}</dd><dd>{t('welcome')}</dd></dl>;\n};\n",
  };
}

const github = (mock: GithubCodeMock, settings: Record<string, unknown> = {}, token = mock.token) => connectorContext(sourceCode, { host: 'github', api_url: mock.apiUrl, repository: mock.repository, ...settings }, { token });
const strings = (units: unknown[]) => (units as StringUnit[])[0]!.strings;

describe('Source code connector (GitHub)', () => {
  let mock: GithubCodeMock;
  beforeAll(async () => {
    mock = await startGithubCodeMock(driftedRepository());
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.requests.length = 0;
  });

  it("lists the keys the code uses, with the code's default text, else the source file's, and the first use as context", async () => {
    const listing = await sourceCode.list(github(mock));
    expect(listing.units).toHaveLength(1);
    expect(listing.units[0]!.path).toBe('acme/shop');
    expect(strings(listing.units)).toEqual([
      { key: 'welcome', source: 'Welcome to our store', context: 'src/App.tsx:7 and 1 more', notes: 'The source file locales/en.json holds "Welcome!".' },
      { key: 'cart', source: 'Your cart is empty', context: 'src/App.tsx:8' },
      { key: 'checkout', source: 'Proceed to checkout', context: 'src/App.tsx:9' },
      { key: 'profile.name', source: 'Your name', context: 'src/Profile.tsx:5' },
      { key: 'farewell', source: 'See you soon', context: 'src/messages.ts:4', notes: 'Shown when the customer leaves the store' },
    ]);
  });

  it('reports keys missing from the source file, keys it holds that no code uses, and what it could not read, in the note', async () => {
    const { note } = await sourceCode.list(github(mock));
    expect(note).toMatch(/^Source code of acme\/shop on GitHub, tree [0-9a-f]{12} of 'main', import only: 6 keys in 3 of 4 code files\./);
    expect(note).toContain("2 used but missing from locales/en.json: 'profile.bio', 'farewell'");
    expect(note).toContain("1 in locales/en.json that no code uses: 'legacy.title'");
    expect(note).toContain("1 without any text (no default in the code, none in the source file), not imported: 'profile.bio'");
    expect(note).toContain('src/App.tsx:10: t(…) with a dynamic key');
    expect(note).toContain('src/messages.ts:9: A message of defineMessages without an id');
  });

  it('reads only included code files, by blob id, never the tests, nor a file over the size limit', async () => {
    await sourceCode.list(github(mock));
    const paths = mock.requests.map((r) => r.path);
    expect(paths[0]).toBe('/repos/acme/shop');
    expect(paths[1]).toBe('/repos/acme/shop/git/trees/main');
    expect(mock.requests[1]!.query.get('recursive')).toBe('1');
    // Three code files, parlance.yml and the source file: five blobs; neither the test file nor the bundle.
    expect(paths.filter((p) => p.includes('/git/blobs/'))).toHaveLength(5);
    expect(mock.requests.every((r) => r.headers.authorization === `Bearer ${mock.token}` && r.status === 200)).toBe(true);
    const bundle = mock.store.treeEntries('main').find((e) => e.path === 'src/vendor/bundle.min.js')!;
    expect(paths).not.toContain(`/repos/acme/shop/git/blobs/${bundle.sha}`);
    expect((await sourceCode.list(github(mock))).note).toMatch(/src\/vendor\/bundle\.min\.js: skipped, 560\d+ bytes \(over 524288\)/);
  });

  it('reads the ref it is given, and compares with the source file it is given', async () => {
    const listing = await sourceCode.list(github(mock, { ref: 'main', source_file: 'locales/en.json', include: ['src/Profile.tsx'] }));
    expect(mock.requests.map((r) => r.path)[0]).toBe('/repos/acme/shop/git/trees/main');
    expect(strings(listing.units).map((s) => s.key)).toEqual(['profile.name', 'welcome']);
    // `welcome` has no default in Profile.tsx: the source file's value.
    expect(strings(listing.units)[1]!.source).toBe('Welcome!');
    expect(listing.note).toContain("3 in locales/en.json that no code uses: 'cart', 'checkout', 'legacy.title'");
  });

  it('refused token: ConnectorError auth quoting GitHub', async () => {
    const error = await rejection(sourceCode.list(github(mock, {}, 'github_pat_revoked')));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('Reading acme/shop on GitHub (setting repository): GitHub refused the credentials (HTTP 401: Bad credentials)');
  });

  it('a ref, a source file or a repository that is not there: ConnectorError config naming the setting', async () => {
    const ref = await rejection(sourceCode.list(github(mock, { ref: 'no-such-branch' })));
    expect(ref.kind).toBe('config');
    expect(ref.message).toContain("Listing the files of acme/shop on GitHub at 'no-such-branch' (setting ref): GitHub answered HTTP 404: Not Found");
    const file = await rejection(sourceCode.list(github(mock, { source_file: 'locales/en-US.json' })));
    expect(file).toMatchObject({ kind: 'config', message: expect.stringContaining("has no file 'locales/en-US.json'") });
    expect(file.message).toContain('(setting source_file)');
    const repo = await rejection(sourceCode.list(github(mock, { repository: 'acme/other' })));
    expect(repo.kind).toBe('config');
  });

  it('GitHub down: ConnectorError unavailable, and fine once it is back', async () => {
    await mock.stop();
    try {
      expect((await rejection(sourceCode.list(github(mock)))).kind).toBe('unavailable');
    } finally {
      await mock.start();
    }
    expect(strings((await sourceCode.list(github(mock))).units)).toHaveLength(5);
  });

  it('waits out a 429 and carries on', async () => {
    mock.failNext429(1, 1);
    const listing = await sourceCode.list(connectorContext(sourceCode, { host: 'github', api_url: mock.apiUrl, repository: mock.repository }, { token: mock.token }, { maxRetries: 1 }));
    expect(mock.requests[0]!.status).toBe(429);
    expect(strings(listing.units)).toHaveLength(5);
  });

  it('verifies GitHub push events by X-Hub-Signature-256, and syncs only for the branch it reads', () => {
    const settings = sourceCode.settings.parse({ host: 'github', repository: 'acme/shop' });
    const verify = (event: { headers: Record<string, string>; body: string }, current = settings) => sourceCode.verifyWebhook!({ headers: new Headers(event.headers), body: new TextEncoder().encode(event.body) }, 'hook-secret', current);
    expect(verify(mock.pushEvent('hook-secret'))).toEqual({ verified: true, sync: true });
    expect(verify(mock.pushEvent('not-the-secret'))).toMatchObject({ verified: false, sync: false });
    expect(verify(mock.pushEvent('hook-secret', 'refs/heads/feature'))).toMatchObject({ verified: true, sync: false });
    expect(verify(mock.pushEvent('hook-secret', 'refs/heads/release'), sourceCode.settings.parse({ host: 'github', repository: 'acme/shop', ref: 'release' }))).toEqual({ verified: true, sync: true });
    const unsigned = mock.pushEvent('hook-secret');
    delete unsigned.headers['X-Hub-Signature-256'];
    expect(verify(unsigned)).toMatchObject({ verified: false, reason: expect.stringContaining('X-Hub-Signature-256') });
  });

  it('validates its settings: globs, the repository, the host', () => {
    expect(sourceCode.settings.safeParse({ host: 'github', repository: 'acme/shop', include: ['src/{a,b'] }).success).toBe(false);
    expect(sourceCode.settings.safeParse({ host: 'github', repository: 'shop' }).success).toBe(false);
    expect(sourceCode.settings.safeParse({ host: 'bitbucket', repository: 'acme/shop' }).success).toBe(false);
    expect(sourceCode.settings.parse({ host: 'gitlab', repository: '4815' })).toMatchObject({ include: ['src/**/*.{js,jsx,ts,tsx,vue}'] });
  });
});

describe('Source code connector (GitHub) bounds', () => {
  it('an empty answer where the repository was asked for: ConnectorError unavailable, not a TypeError', async () => {
    const server = createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end());
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const error = await rejection(sourceCode.list(connectorContext(sourceCode, { host: 'github', api_url: apiUrl, repository: 'acme/shop' }, { token: 't' })));
      expect(error).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('Reading acme/shop on GitHub (setting repository): 127.0.0.1') });
      expect(error.message).toContain('with an empty body');
      const gitlab = await rejection(sourceCode.list(connectorContext(sourceCode, { host: 'gitlab', api_url: apiUrl, repository: 'acme/shop' }, { token: 't' })));
      expect(gitlab).toMatchObject({ kind: 'unavailable', message: expect.stringContaining('with an empty body') });
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('a truncated tree, or more code files than one sync reads: ConnectorError config', async () => {
    const truncated = await startGithubCodeMock(repositoryFiles(), { truncated: true });
    const many = await startGithubCodeMock({ ...repositoryFiles(), ...fillerFiles(MAX_CODE_FILES + 1) });
    try {
      const cut = await rejection(sourceCode.list(github(truncated)));
      expect(cut).toMatchObject({ kind: 'config', message: expect.stringContaining('holds more than GitHub lists in one answer') });
      expect(cut.message).toContain('Use GitLab, or run `parlance extract` in CI.');
      const over = await rejection(sourceCode.list(github(many)));
      expect(over.kind).toBe('config');
      // The fillers, App.tsx, messages.ts and the bundle (matched, though it would be skipped unread).
      expect(over.message).toContain(`${MAX_CODE_FILES + 4} code files match include and not exclude, more than the ${MAX_CODE_FILES} one sync reads`);
      expect(many.requests.some((r) => r.path.includes('/git/blobs/'))).toBe(false);
    } finally {
      await truncated.close();
      await many.close();
    }
  });
});

describe('Source code connector: the cache of unchanged files', () => {
  let mock: GithubCodeMock;
  beforeEach(async () => {
    mock = await startGithubCodeMock(driftedRepository());
  });
  afterEach(async () => {
    await mock.close();
  });

  /** A listing as the sync engine runs it: with the state the previous listing kept (null before the first). */
  const listAfter = (previous: Listing | null) => sourceCode.list({ ...github(mock), state: previous === null ? null : (previous.state ?? null) });
  const listWith = (state: JsonValue) => sourceCode.list({ ...github(mock), state });
  /** The blobs (files) downloaded since the last call. */
  const downloads = () => {
    const blobs = mock.requests.filter((r) => r.path.includes('/git/blobs/')).map((r) => r.path.slice(r.path.lastIndexOf('/') + 1));
    mock.requests.length = 0;
    return blobs;
  };
  const blobOf = (path: string) => mock.store.treeEntries('main').find((e) => e.path === path)!.sha;
  /** The listing but for the note's count of files downloaded, which is all the cache may change. */
  const withoutCount = (listing: Listing) => ({ units: listing.units, note: listing.note!.replace(/ Files downloaded: [^]*$/, ''), state: listing.state });
  /** A listing read with the cache is the one read without it. */
  const expectFresh = async (cached: Listing) => {
    const fresh = await listAfter(null);
    mock.requests.length = 0;
    expect(withoutCount(cached)).toEqual(withoutCount(fresh));
  };

  it('a second listing with nothing changed downloads no file, and lists exactly what a fresh one does', async () => {
    const first = await listAfter(null);
    expect(downloads()).toHaveLength(5);
    expect(first.note).toContain('Files downloaded: 5; from the cache (blob unchanged since the last sync): 0.');
    const kept = first.state as { version: string; code: Record<string, { sha: string }> };
    // The cache's shape and the release that wrote it: another release's cache is not trusted.
    expect(kept.version).toBe(`1:${packageJson.version}`);
    // The code files read, not the test nor the bundle GitHub's tree says is too large.
    expect(Object.keys(kept.code).sort()).toEqual(['src/App.tsx', 'src/Profile.tsx', 'src/messages.ts']);
    expect(kept.code['src/App.tsx']!.sha).toBe(blobOf('src/App.tsx'));

    const second = await listAfter(first);
    expect(downloads()).toEqual([]);
    expect(mock.requests).toHaveLength(0);
    expect(second.note).toContain('Files downloaded: 0; from the cache (blob unchanged since the last sync): 5.');
    expect(withoutCount(second)).toEqual(withoutCount(first));
    await expectFresh(second);
  });

  it('one changed file: one download, the others from the cache', async () => {
    const first = await listAfter(null);
    downloads();
    commitFiles(mock.store, { 'src/Profile.tsx': "import { useTranslation } from 'react-i18next';\n\nexport const Profile = () => {\n  const { t } = useTranslation();\n  return <dl><dt>{t('profile.name', 'Name')}</dt><dd>{t('profile.email', 'Email')}</dd></dl>;\n};\n" }, 'Reword the profile');
    const second = await listAfter(first);
    expect(downloads()).toEqual([blobOf('src/Profile.tsx')]);
    expect(second.note).toContain('Files downloaded: 1; from the cache (blob unchanged since the last sync): 4.');
    expect(strings(second.units).find((s) => s.key === 'profile.email')).toEqual({ key: 'profile.email', source: 'Email', context: 'src/Profile.tsx:5' });
    await expectFresh(second);

    // The source file changing is one download too.
    commitFiles(mock.store, { 'locales/en.json': `${JSON.stringify({ welcome: 'Welcome!', 'profile.email': 'E-mail' }, null, 2)}\n` }, 'Edit the source file');
    const third = await listAfter(second);
    expect(downloads()).toEqual([blobOf('locales/en.json')]);
    expect(third.note).toContain("none unused");
    await expectFresh(third);
  });

  it('a file removed from the tree leaves the cache', async () => {
    const first = await listAfter(null);
    downloads();
    commitFiles(mock.store, { 'src/Profile.tsx': null }, 'Remove the profile');
    const second = await listAfter(first);
    expect(downloads()).toEqual([]);
    expect(Object.keys((second.state as { code: object }).code).sort()).toEqual(['src/App.tsx', 'src/messages.ts']);
    expect(strings(second.units).map((s) => s.key)).not.toContain('profile.name');
    await expectFresh(second);
  });

  it('a corrupt or foreign state is ignored: every file is read, and the listing is a fresh one', async () => {
    const first = await listAfter(null);
    downloads();
    const kept = first.state as { version: string; code: Record<string, Record<string, JsonValue>> };
    const foreign: JsonValue[] = [
      { ...kept, version: '1:0.0.1' },
      { webhook_id: 'ach00000000000000', cursor: 7 },
      'garbage',
      [1, 2, 3],
      // The right version and blob, findings of another shape: nothing of it is trusted.
      { ...kept, code: { ...kept.code, 'src/App.tsx': { ...kept.code['src/App.tsx']!, uses: [['welcome', 'Forged']] } } },
    ];
    for (const state of foreign) {
      const listing = await listWith(state);
      expect(downloads(), JSON.stringify(state).slice(0, 80)).toHaveLength(5);
      expect(listing.note).toContain('so it was ignored');
      await expectFresh(listing);
    }
  });

  it(`a cache over ${MAX_CACHE_BYTES} bytes is not kept, and the note says so`, async () => {
    // A parlance.yml with 5 MiB of comments and a source file of 4 MiB: each within the 8 MiB read, both over the cache's bound.
    const big = await startGithubCodeMock({
      ...driftedRepository(),
      'parlance.yml': `${PARLANCE_YML}${`# ${'x'.repeat(1022)}\n`.repeat(5 * 1024)}`,
      'locales/en.json': JSON.stringify(Object.fromEntries(Array.from({ length: 4 * 1024 }, (_, i) => [`filler.${i}`, 'y'.repeat(1000)]))),
    });
    try {
      const first = await sourceCode.list({ ...github(big), state: null });
      expect(first.state).toBeNull();
      expect(first.note).toMatch(/no cache kept: it would take \d+ bytes, over the 8388608 a connection keeps, so the next sync downloads every file\.$/);
      big.requests.length = 0;
      const second = await sourceCode.list({ ...github(big), state: first.state ?? null });
      expect(big.requests.filter((r) => r.path.includes('/git/blobs/'))).toHaveLength(5);
      expect(second.state).toBeNull();
    } finally {
      await big.close();
    }
  });
});

describe('Source code connector (GitLab)', () => {
  let mock: GitlabMock;
  beforeAll(async () => {
    mock = await startGitlabCodeMock();
  });
  afterAll(async () => {
    await mock.close();
  });

  const gitlab = (token = mock.token, settings: Record<string, unknown> = {}) => connectorContext(sourceCode, { host: 'gitlab', api_url: mock.apiUrl, repository: mock.projectPath, ref: 'main', ...settings }, { token });

  it('lists the same keys, every file read at the commit the branch pointed at', async () => {
    mock.requests.length = 0;
    const listing = await sourceCode.list(gitlab());
    expect(strings(listing.units).map((s) => [s.key, s.source])).toEqual([
      ['welcome', 'Welcome to our store'],
      ['cart', 'Your cart is empty'],
      ['checkout', 'Proceed to checkout'],
      ['farewell', 'See you soon'],
    ]);
    const head = mock.store.head('main')!;
    expect(listing.note).toContain(`Source code of acme/shop on GitLab, commit ${head.slice(0, 12)} of 'main'`);
    expect(listing.note).toContain('none missing from locales/en.json. none unused');
    const reads = mock.requests.filter((r) => r.path.includes('/repository/files/') || r.path.includes('/repository/tree'));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.query.get('ref') === head)).toBe(true);
    expect(mock.requests.every((r) => r.headers['private-token'] === mock.token)).toBe(true);
    // The bundle is read only up to the limit (GitLab's tree gives no sizes) and skipped.
    expect(listing.note).toMatch(/src\/vendor\/bundle\.min\.js: skipped, over 524288 bytes/);
  });

  it('a second listing downloads only the changed file: the rest, the oversized bundle too, comes from the cache', async () => {
    const raws = () => mock.requests.filter((r) => r.path.includes('/repository/files/')).map((r) => decodeURIComponent(r.path.split('/repository/files/')[1]!.replace(/\/raw$/, '')));
    mock.requests.length = 0;
    const first = await sourceCode.list(gitlab());
    expect(raws().sort()).toEqual(['locales/en.json', 'parlance.yml', 'src/App.tsx', 'src/messages.ts', 'src/vendor/bundle.min.js']);
    mock.requests.length = 0;
    const second = await sourceCode.list({ ...gitlab(), state: first.state ?? null });
    expect(raws()).toEqual([]);
    expect(second.note).toMatch(/src\/vendor\/bundle\.min\.js: skipped, over 524288 bytes/);
    expect(second.units).toEqual(first.units);
    commitFiles(mock.store, { 'src/messages.ts': "import { defineMessage } from 'react-intl';\nexport const bye = defineMessage({ id: 'farewell', defaultMessage: 'Goodbye' });\n" }, 'Reword farewell');
    mock.requests.length = 0;
    const third = await sourceCode.list({ ...gitlab(), state: second.state ?? null });
    expect(raws()).toEqual(['src/messages.ts']);
    expect(strings(third.units).find((s) => s.key === 'farewell')?.source).toBe('Goodbye');
    expect(third.note).toContain('Files downloaded: 1; from the cache (blob unchanged since the last sync): 4.');
  });

  it("refused token: ConnectorError auth quoting GitLab's 401", async () => {
    const error = await rejection(sourceCode.list(gitlab('glpat-revoked')));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('GitLab refused the credentials (HTTP 401: 401 Unauthorized)');
  });

  it('verifies GitLab push events by X-Gitlab-Token', () => {
    const settings = sourceCode.settings.parse({ host: 'gitlab', repository: 'acme/shop', ref: 'main' });
    const verify = (event: { headers: Record<string, string>; body: string }) => sourceCode.verifyWebhook!({ headers: new Headers(event.headers), body: new TextEncoder().encode(event.body) }, 'hook-secret', settings);
    expect(verify(mock.pushEvent('hook-secret'))).toEqual({ verified: true, sync: true });
    expect(verify(mock.pushEvent('forged'))).toMatchObject({ verified: false });
  });
});

connectorAcceptance('Source code connector: acceptance against the GitHub mock', sourceCodeFixture, { direction: 'import_only' });
