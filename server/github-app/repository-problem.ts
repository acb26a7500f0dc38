/** GitHub's rules for a repository's `owner/name`, for the repository a GitHub link names. */

/** GitHub's rules: an owner of up to 39 letters, digits and hyphens (not first); a name of up to 100 letters, digits, '.', '_' and '-'. */
const REPOSITORY = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/;

/** Why `value` is not a repository `owner/name`, or undefined when it is one. */
export function repositoryProblem(value: string): string | undefined {
  const name = value.split('/')[1];
  if (!REPOSITORY.test(value) || name === '.' || name === '..') return `Invalid repository '${value}'. Expected 'owner/name' as on GitHub, such as 'acme/web'.`;
  return undefined;
}
