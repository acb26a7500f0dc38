/** Git's rules for a branch name (git check-ref-format), for the base branch a code-host connection or a GitHub link names. */

/** Characters git refuses in a ref name (git check-ref-format), besides control characters. */
const REF_FORBIDDEN = /[\s~^:?*[\\]/;

/** Control characters (U+0000 to U+001F and DEL), which neither git refs nor repository paths may hold. */
function hasControlCharacter(value: string): boolean {
  return [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
}

/** git check-ref-format's rules for a branch, each with the reason a name breaking it is refused. */
const BRANCH_RULES: readonly (readonly [breaks: (name: string) => boolean, reason: string])[] = [
  [(name) => name.length === 0 || name.length > 255, 'it must have 1 to 255 characters'],
  [(name) => REF_FORBIDDEN.test(name) || hasControlCharacter(name), 'it contains a space, a control character or one of ~ ^ : ? * [ \\'],
  [(name) => name.includes('..') || name.includes('@{') || name.includes('//') || name === '@', "it contains '..', '@{' or '//', or is '@'"],
  [(name) => name.startsWith('/') || name.startsWith('-') || name.endsWith('/') || name.endsWith('.'), "it starts with '/' or '-', or ends with '/' or '.'"],
  [(name) => name.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock')), "a part starts with '.' or ends with '.lock'"],
];

/** Why `value` is not a branch name git would accept, or undefined when it is one. */
export function branchProblem(value: string): string | undefined {
  const broken = BRANCH_RULES.find(([breaks]) => breaks(value));
  return broken && `Invalid base_branch '${value}': ${broken[1]}. Expected a branch name such as 'main'.`;
}
