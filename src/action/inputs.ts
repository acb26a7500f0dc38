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
  /** The service URL; undefined: parlance.yml's `service`, then PARLANCE_URL, as the CLI decides. */
  serviceUrl: string | undefined;
  wait: boolean;
  failOnRefused: boolean;
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
    'service-url': optionalText,
    wait: booleanInput('wait', true),
    'fail-on-refused': booleanInput('fail-on-refused', true),
    GITHUB_WORKSPACE: optionalText,
  })
  .superRefine((inputs, ctx) => {
    if (inputs.command === 'sync' && !inputs.wait) {
      ctx.addIssue({ code: 'custom', message: "Input wait 'false' does not go with command 'sync': sync pulls what its batches translate, so it waits for them. Use command 'push' to queue without waiting." });
    }
  });

export const INPUT_NAMES = ['token', 'command', 'config', 'working-directory', 'service-url', 'wait', 'fail-on-refused'] as const;

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
