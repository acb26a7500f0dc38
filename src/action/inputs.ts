/** The Action's inputs and the runner's environment, parsed once with zod into the typed object the run works from. */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';

export const COMMANDS = ['push', 'pull', 'sync'] as const;
export type ActionCommand = (typeof COMMANDS)[number];

export interface ActionInputs {
  token: string;
  command: ActionCommand;
  /** The parlance.yml to load, relative to `workingDirectory`; undefined: look in the usual places. */
  config: string | undefined;
  /** The service URL; undefined: parlance.yml's `service`, then PARLANCE_URL (run.ts refuses a run with none of them). */
  serviceUrl: string | undefined;
  wait: boolean;
  failOnRefused: boolean;
  /** Commit the pulled files to a branch and open or update its pull request (a comment on `pull_request` events). */
  createPullRequest: boolean;
  /** The workflow's GITHUB_TOKEN (or another token) for the GitHub API; '' when not given. */
  githubToken: string;
  /** The branch for the pull request; undefined: `parlance/<base>`. */
  pullRequestBranch: string | undefined;
  /** The checkout, absolute: annotations name files relative to it, as GitHub expects. */
  workspace: string;
  /** Absolute, inside `workspace`. */
  workingDirectory: string;
}

/** Reads one input as the runner passes it (`INPUT_<NAME>`, upper-cased, dashes kept); '' when absent. */
export type InputReader = (name: string) => string;

/** Action inputs are YAML 1.2 core-schema booleans, as `core.getBooleanInput` accepts them. */
const TRUE_VALUES: ReadonlySet<string> = new Set(['true', 'True', 'TRUE']);
const FALSE_VALUES: ReadonlySet<string> = new Set(['false', 'False', 'FALSE']);

function booleanInput(name: string, fallback: boolean) {
  return z.string().transform((value, ctx) => {
    if (value === '') return fallback;
    if (TRUE_VALUES.has(value)) return true;
    if (FALSE_VALUES.has(value)) return false;
    ctx.addIssue({ code: 'custom', message: `Invalid input ${name} '${value}'. Expected true or false.` });
    return z.NEVER;
  });
}

/** An empty input is an input not given. */
const optionalText = z.string().transform((value) => (value === '' ? undefined : value));

/** An optional input that `problem` checks when given: it answers the message for a bad value, else undefined. */
function checkedText(problem: (value: string) => string | undefined) {
  return z.string().transform((value, ctx) => {
    if (value === '') return undefined;
    const message = problem(value);
    if (message === undefined) return value;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
}

// The defaults repeat action.yml's: the runner fills them in, but a run started outside a workflow (a test, `node dist/index.js`) does not.
const RawInputs = z
  .object({
    token: z.string().refine((value) => value !== '', 'Input token is required: a Parlance project token (prl_…) with the push, pull and read abilities.'),
    command: z.string().transform((value, ctx) => {
      if (value === '') return 'sync' as const;
      if ((COMMANDS as readonly string[]).includes(value)) return value as ActionCommand;
      ctx.addIssue({ code: 'custom', message: `Invalid input command '${value}'. Expected one of ${COMMANDS.join(', ')}.` });
      return z.NEVER;
    }),
    config: optionalText,
    'working-directory': optionalText,
    'service-url': checkedText((value) => (isHttpUrl(value) ? undefined : `Invalid input service-url '${value}'. Expected an http(s) URL such as https://parlance.example.com.`)),
    wait: booleanInput('wait', true),
    'fail-on-refused': booleanInput('fail-on-refused', true),
    'create-pull-request': booleanInput('create-pull-request', false),
    'github-token': z.string(),
    'pull-request-branch': checkedText((value) => {
      const problem = branchNameProblem(value);
      return problem && `Invalid input pull-request-branch '${value}': ${problem}. Expected a branch name such as 'parlance/main'.`;
    }),
    GITHUB_WORKSPACE: optionalText,
  })
  .superRefine((inputs, ctx) => {
    if (inputs['create-pull-request'] && inputs['github-token'] === '') {
      ctx.addIssue({
        code: 'custom',
        message: "Input github-token is empty, and create-pull-request is true: it needs a token for the GitHub API. Leave github-token out (its default is the workflow's GITHUB_TOKEN, '${{ github.token }}') or pass a token with contents: write and pull-requests: write.",
      });
    }
    if (inputs.command === 'sync' && !inputs.wait) {
      ctx.addIssue({ code: 'custom', message: "Input wait 'false' does not go with command 'sync': sync pulls what its batches translate, so it waits for them. Use command 'push' to queue without waiting." });
    }
  });

export const INPUT_NAMES = [
  'token',
  'command',
  'config',
  'working-directory',
  'service-url',
  'wait',
  'fail-on-refused',
  'create-pull-request',
  'github-token',
  'pull-request-branch',
] as const;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Why git would refuse the name as a branch (the rules of `git check-ref-format`), or undefined. */
export function branchNameProblem(name: string): string | undefined {
  if (name.startsWith('refs/')) return "give the branch name without 'refs/heads/'";
  if ([...name].some((char) => char <= ' ' || char === '\u007f') || /[~^:?*[\\]/.test(name)) return 'a branch name has no spaces, control characters or any of ~ ^ : ? * [ \\';
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return "a branch name has no '..', '@{' or '//'";
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock') || name === '@') return "a branch name does not start or end with '/', end with '.' or '.lock', or equal '@'";
  if (name.split('/').some((part) => part.startsWith('.'))) return "no part of a branch name starts with '.'";
  return undefined;
}

/** A problem with the inputs; the message quotes the bad value and the expected form. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** Parses every input and the workspace; throws an InputError naming the first bad one. */
export function parseInputs(read: InputReader, env: Record<string, string | undefined>, cwd: string): ActionInputs {
  const raw = Object.fromEntries([...INPUT_NAMES.map((name) => [name, read(name)]), ['GITHUB_WORKSPACE', env.GITHUB_WORKSPACE ?? '']]);
  const result = RawInputs.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new InputError(issue.code === 'custom' ? issue.message : `Input ${issue.path.join('.')}: ${issue.message}`);
  }
  const inputs = result.data;
  const workspace = resolve(cwd, inputs.GITHUB_WORKSPACE ?? '.');
  return {
    token: inputs.token,
    command: inputs.command,
    config: inputs.config,
    serviceUrl: inputs['service-url'],
    wait: inputs.wait,
    failOnRefused: inputs['fail-on-refused'],
    createPullRequest: inputs['create-pull-request'],
    githubToken: inputs['github-token'],
    pullRequestBranch: inputs['pull-request-branch'],
    workspace,
    workingDirectory: workingDirectory(workspace, inputs['working-directory']),
  };
}

/** The working directory, absolute; it must exist and stay inside the workspace, where annotations can point. */
function workingDirectory(workspace: string, input: string | undefined): string {
  if (input === undefined) return workspace;
  const absolute = resolve(workspace, input);
  const inside = relative(workspace, absolute);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new InputError(`Invalid input working-directory '${input}': it leads outside the workspace ${workspace}. Expected a directory of the repository, such as 'web'.`);
  }
  if (!existsSync(absolute) || !statSync(absolute).isDirectory()) {
    throw new InputError(`Invalid input working-directory '${input}': no such directory (looked for ${absolute}).`);
  }
  return absolute;
}
