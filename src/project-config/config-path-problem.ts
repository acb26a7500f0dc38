/** Where parlance.yml may be in a repository, as a code-host link or connection names it: the one repository path rule. */
import { repoPathProblem } from '../core/repo-path.js';

/** Why `value` is not a relative path inside the repository (the one repository path rule), or undefined when it is one. */
export function configPathProblem(value: string): string | undefined {
  const problem = repoPathProblem(value);
  return problem ? `Invalid config_path '${value}': ${problem.reason}. Expected a path relative to the repository root, such as 'parlance.yml' or '.github/parlance.yml'.` : undefined;
}
