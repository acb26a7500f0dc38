/**
 * scripts/release-action.sh, as the release workflow runs it: in a git repository with a bare remote, tags
 * vX.Y.Z and checks that the major tag moves to the release (and is pushed), never back to an older release,
 * and that a malformed or missing tag is refused. The dist/ rebuild is CI's own check (.ci/run) and is skipped
 * here with PARLANCE_RELEASE_SKIP_BUILD=1.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '../../scripts/release-action.sh');
let root: string;
let work: string;
let remote: string;

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const release = (tag: string) =>
  spawnSync('bash', ['scripts/release-action.sh', tag, 'origin'], { cwd: work, encoding: 'utf8', env: { ...process.env, PARLANCE_RELEASE_SKIP_BUILD: '1' } });
const remoteTag = (name: string) => git(remote, 'rev-parse', `refs/tags/${name}^{commit}`);

function commitAndTag(tag: string, file: string): string {
  writeFileSync(join(work, file), `${tag}\n`);
  git(work, 'add', file);
  git(work, 'commit', '-q', '-m', tag);
  git(work, 'tag', '-a', tag, '-m', tag);
  git(work, 'push', '-q', 'origin', 'HEAD', `refs/tags/${tag}`);
  return git(work, 'rev-parse', 'HEAD');
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'parlance-release-'));
  remote = join(root, 'remote.git');
  work = join(root, 'work');
  git(root, 'init', '-q', '--bare', remote);
  git(root, 'init', '-q', '-b', 'main', work);
  git(work, 'config', 'user.name', 'Release Test');
  git(work, 'config', 'user.email', 'release@example.com');
  git(work, 'remote', 'add', 'origin', remote);
  mkdirSync(join(work, 'scripts'));
  copyFileSync(SCRIPT, join(work, 'scripts/release-action.sh'));
  git(work, 'add', 'scripts');
  git(work, 'commit', '-q', '-m', 'start');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('scripts/release-action.sh', () => {
  it('moves the major tag to each newer release and pushes it', () => {
    const first = commitAndTag('v1.0.0', 'a.txt');
    const run = release('v1.0.0');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('v1 → v1.0.0');
    expect(remoteTag('v1')).toBe(first);

    const second = commitAndTag('v1.1.0', 'a.txt');
    expect(release('v1.1.0').status).toBe(0);
    expect(remoteTag('v1')).toBe(second);
  });

  it('leaves the major tag on a newer release when an older line gets a late patch', () => {
    const newest = remoteTag('v1');
    git(work, 'checkout', '-q', '-b', 'v1.0-fixes', 'v1.0.0');
    commitAndTag('v1.0.1', 'b.txt');
    const run = release('v1.0.1');
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('v1 stays at v1.1.0, which is newer than v1.0.1');
    expect(remoteTag('v1')).toBe(newest);
    git(work, 'checkout', '-q', 'main');
  });

  it('starts a new major tag for a new major version and leaves the old one', () => {
    const v1 = remoteTag('v1');
    const two = commitAndTag('v2.0.0', 'a.txt');
    expect(release('v2.0.0').status).toBe(0);
    expect(remoteTag('v2')).toBe(two);
    expect(remoteTag('v1')).toBe(v1);
  });

  it('refuses a tag that is not vMAJOR.MINOR.PATCH, and one that does not exist, without touching a tag', () => {
    const before = git(remote, 'for-each-ref', 'refs/tags');
    for (const tag of ['1.2.0', 'v1.2', 'v1.2.0-rc.1', 'latest', '']) {
      const run = release(tag);
      expect(run.status, tag).toBe(2);
      expect(run.stderr).toContain('is not a release tag: expected vMAJOR.MINOR.PATCH');
    }
    const missing = release('v9.9.9');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no tag v9.9.9 here');
    expect(git(remote, 'for-each-ref', 'refs/tags')).toBe(before);
  });

  it('refuses to check a tag other than the one checked out when it rebuilds dist/', () => {
    const run = spawnSync('bash', ['scripts/release-action.sh', 'v1.0.0', 'none'], { cwd: work, encoding: 'utf8', env: { ...process.env, PARLANCE_RELEASE_SKIP_BUILD: '' } });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('check out v1.0.0 first');
  });
});
