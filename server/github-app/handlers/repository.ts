/** What the App reads from a linked repository: the base commit, `parlance.yml`, file contents and the commit's file listing. */
import { parseConfig, type ParlanceConfig } from '../../../src/project-config/parse-config.js';
import { repoPath } from '../../../src/core/repo-path.js';
import type { GitHubClient } from '../translation-pr.js';

/** `owner/name` split for the REST API; the route already checked the form. */
export function splitRepository(repository: string): { owner: string; repo: string } {
  const [owner, repo] = repository.split('/');
  if (!owner || !repo) throw new Error(`Invalid repository '${repository}'. Expected 'owner/name'.`);
  return { owner, repo };
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
}

/** The commit a branch points at; throws naming the branch when it does not exist. */
export async function readBranchHead(octokit: GitHubClient, owner: string, repo: string, branch: string): Promise<string> {
  try {
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/ref/{ref}', { owner, repo, ref: `heads/${branch}` });
    return data.object.sha;
  } catch (error) {
    if (statusOf(error) === 404) throw new Error(`Branch '${branch}' does not exist in ${owner}/${repo}.`);
    throw error;
  }
}

/** A file's bytes at a commit, or null when the path holds no file there; a path that fails the repository path rule is never read. */
export async function readRepositoryFile(octokit: GitHubClient, owner: string, repo: string, path: string, ref: string): Promise<Uint8Array | null> {
  let data: unknown;
  try {
    ({ data } = await octokit.request('GET /repos/{owner}/{repo}/contents/{path}', { owner, repo, path: repoPath(path), ref }));
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
  if (Array.isArray(data) || typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== 'file') {
    throw new Error(`'${path}' in ${owner}/${repo}@${ref} is not a file.`);
  }
  const file = data as { encoding?: string; content?: string; size?: number };
  // Over 1 MB the contents API answers with encoding 'none' and no content; such a locale file is beyond what the App handles.
  if (file.encoding !== 'base64' || typeof file.content !== 'string') {
    throw new Error(`'${path}' in ${owner}/${repo}@${ref} (${file.size ?? '?'} bytes) came without base64 content (encoding '${file.encoding ?? 'none'}'); files over 1 MB are not supported.`);
  }
  return new Uint8Array(Buffer.from(file.content, 'base64'));
}

/** The link's `parlance.yml` at a commit, parsed and validated; a missing or invalid one is an error naming the file. */
export async function readParlanceConfig(octokit: GitHubClient, owner: string, repo: string, configPath: string, ref: string): Promise<ParlanceConfig> {
  const bytes = await readRepositoryFile(octokit, owner, repo, configPath, ref);
  if (bytes === null) throw new Error(`No '${configPath}' in ${owner}/${repo}@${ref}; the link's config path must name the repository's parlance.yml.`);
  return parseConfig(new TextDecoder().decode(bytes), configPath);
}

/** Every file path in a commit's tree; a truncated listing is refused, as missing sources would silently drop their translations. */
export async function listFilePaths(octokit: GitHubClient, owner: string, repo: string, commitSha: string): Promise<string[]> {
  const { data } = await octokit.request('GET /repos/{owner}/{repo}/git/trees/{tree_sha}', { owner, repo, tree_sha: commitSha, recursive: 'true' });
  if (data.truncated) throw new Error(`The tree of ${owner}/${repo}@${commitSha} is too large for one listing (GitHub truncated it); the App cannot find every source file.`);
  return data.tree.filter((e) => e.type === 'blob' && e.path !== undefined).map((e) => e.path!);
}
