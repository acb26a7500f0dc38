/** What every user command shares: its definition and the parsing of its flags. */
import type { ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { checkLocale } from '../../core/locales/locales.js';
import type { CommandContext } from '../../sync/command-context.js';
import { CommandError } from '../../sync/command-error.js';

/** What `parseArgs` takes as `options`. */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** Options every command takes, wherever they stand on the command line. */
export const GLOBAL_OPTIONS = {
  token: { type: 'string' },
  service: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionsConfig;

export interface Command {
  name: string;
  /** One line for `parlance --help`. */
  summary: string;
  /** What `parlance <command> --help` prints: usage lines and the command's own options. */
  help: string;
  /** The command's own options; GLOBAL_OPTIONS are added to them. */
  options: OptionsConfig;
  run(context: CommandContext, args: { values: Record<string, unknown>; positionals: string[] }): Promise<number>;
}

/** Validates a command's parsed flags; the first problem becomes a usage error quoting the bad value. */
export function parseFlags<S extends z.ZodType>(schema: S, values: Record<string, unknown>): z.infer<S> {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new CommandError(issue.code === 'custom' ? issue.message : `--${issue.path.join('.')}: ${issue.message}`);
}

/** A locale flag's value, canonical: `--locale pt-br` is `pt-BR`; `en_us` is refused with the suggested tag. */
export function localeTag(flag: string) {
  return z.string().transform((value, ctx) => {
    const check = checkLocale(value);
    if (check.ok) return check.tag;
    ctx.addIssue({ code: 'custom', message: `Invalid ${flag} '${value}'. ${check.message}` });
    return z.NEVER;
  });
}

/** A repeatable, comma-separated locale flag (`--locale de,fr --locale ja`), canonical and without duplicates. */
export function localeTags(flag: string) {
  return z
    .array(z.string())
    .optional()
    .transform((values, ctx) => {
      if (values === undefined) return undefined;
      const tags: string[] = [];
      for (const value of values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)) {
        const check = checkLocale(value);
        if (!check.ok) {
          ctx.addIssue({ code: 'custom', message: `Invalid ${flag} '${value}'. ${check.message}` });
          return z.NEVER;
        }
        if (!tags.includes(check.tag)) tags.push(check.tag);
      }
      return tags;
    });
}

/** A flag that takes one of a few words; anything else is refused with the list. */
export function oneOf<const T extends readonly [string, ...string[]]>(flag: string, choices: T) {
  return z.string().transform((value, ctx) => {
    if ((choices as readonly string[]).includes(value)) return value as T[number];
    ctx.addIssue({ code: 'custom', message: `Invalid ${flag} '${value}'. Expected one of: ${choices.join(', ')}.` });
    return z.NEVER;
  });
}

/** The positional argument at `index`, or a usage error that says which one is missing. */
export function positional(positionals: string[], index: number, missing: string): string {
  const value = positionals[index];
  if (value === undefined || value === '') throw new CommandError(missing);
  return value;
}

/** A usage error for positionals beyond what the command takes. */
export function noMorePositionals(positionals: string[], from: number, usage: string): void {
  const extra = positionals[from];
  if (extra !== undefined) throw new CommandError(`Unexpected argument '${extra}'. Usage: ${usage}`);
}
