/**
 * What each plan allows (word allowance, seats, projects, locale rows, API tokens), the operator's PARLANCE_PLANS on top
 * of the built-in plans, and the messages that tell a refused user which plan would do and who can move them there.
 */
import { readFileSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ApiError } from '../errors.js';

/** Limits of one plan; `Infinity` means no limit. */
export interface PlanLimits {
  /** Words available in the first month. */
  initialWords: number;
  /** Words available in each month after the first. */
  monthlyWords: number;
  /** Projects an organisation may own. */
  maxProjects: number;
  /** Locale rows per project, counting the source locale. */
  maxLocaleRows: number;
  /** Members plus pending invitations. */
  seats: number;
  canMintTokens: boolean;
}

/** The spec's Free and Starter, and `unlimited` for an operator's own organisations. */
export const BUILT_IN_PLANS: Readonly<Record<string, PlanLimits>> = {
  free: { initialWords: 100_000, monthlyWords: 10_000, maxProjects: 1, maxLocaleRows: 15, seats: 3, canMintTokens: false },
  starter: { initialWords: 300_000, monthlyWords: 300_000, maxProjects: Infinity, maxLocaleRows: Infinity, seats: 3, canMintTokens: true },
  unlimited: { initialWords: Infinity, monthlyWords: Infinity, maxProjects: Infinity, maxLocaleRows: Infinity, seats: Infinity, canMintTokens: true },
};

/**
 * The allowance kept for a plan without a word limit. The column is a 32-bit integer, and keeping a (huge) number
 * rather than skipping the allowance means reservations and refunds stay symmetric when an organisation changes plan
 * while a batch runs; reserveWords tops it up, so it never runs out.
 */
export const UNLIMITED_WORDS = 2_000_000_000;
/** The largest word allowance a configured plan may name; above it, 'unlimited'. */
export const MAX_PLAN_WORDS = 1_000_000_000;
/** PARLANCE_PLANS files are a few plans, not data: a bigger file is a mistake (a wrong path) worth stopping for. */
export const MAX_PLANS_FILE_BYTES = 64 * 1024;
const PLAN_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

export interface PlanSettings {
  /** Every plan this instance offers, built-in ones first, in the order the operator's file names new ones. */
  plans: Readonly<Record<string, PlanLimits>>;
  /** PARLANCE_DEFAULT_PLAN: the plan of organisations created by sign-up and by `admin org create` without --plan. */
  defaultPlan: string;
  /**
   * PARLANCE_HOSTED=true: the project's own hosted service, where refusals say "upgrade". Otherwise (the default) the
   * instance is self-hosted and refusals name the `parlance admin org set-plan` command an operator can run.
   */
  hosted: boolean;
}

export const DEFAULT_PLAN_SETTINGS: PlanSettings = { plans: BUILT_IN_PLANS, defaultPlan: 'free', hosted: false };

/*
 * One process serves one operator's configuration, and the limits are read deep inside a dozen services' transactions
 * (allowance, seats, locale rows, projects, tokens, imports); the entry points (createRuntime, `parlance admin`) install
 * the parsed settings once instead of threading them through every factory.
 */
let active: PlanSettings = DEFAULT_PLAN_SETTINGS;

export function usePlanSettings(settings: PlanSettings): void {
  active = settings;
}

export function planSettings(): PlanSettings {
  return active;
}

export function planNames(): string[] {
  return Object.keys(active.plans);
}

export function isConfiguredPlan(name: string): boolean {
  return Object.hasOwn(active.plans, name);
}

/** Whether a configured plan has no word limit. */
export function isUnlimited(plan: string): boolean {
  const limits = findPlan(plan);
  return limits !== undefined && !Number.isFinite(limits.monthlyWords);
}

/** The limits of a configured plan, or undefined for a name the configuration no longer has. */
export function findPlan(name: string): PlanLimits | undefined {
  return isConfiguredPlan(name) ? active.plans[name] : undefined;
}

/**
 * The limits of an organisation's plan. An organisation whose plan the operator removed from PARLANCE_PLANS is not
 * silently given another plan's limits (which could be more generous, or stop it working): what it asks for is refused
 * with a message saying how to fix it, and reads that only display the plan still work.
 */
export function limitsOf(org: { id: string; name: string; plan: string }): PlanLimits {
  const limits = findPlan(org.plan);
  if (limits) return limits;
  throw new ApiError(
    409,
    'plan_not_configured',
    `Organisation '${org.name}' is on the plan '${org.plan}', which this instance does not configure (its plans: ${planNames().join(', ')}). ` +
      (active.hosted
        ? 'Contact support to move the organisation to a current plan.'
        : `An operator can add '${org.plan}' to PARLANCE_PLANS or run \`parlance admin org set-plan ${org.id} <plan>\`.`),
    { plan: org.plan, plans: planNames() },
  );
}

/** Whether the allowance period with this index (0 = the first month) has no word limit on this plan. */
export function unlimitedWordsIn(limits: PlanLimits, index: number): boolean {
  return !Number.isFinite(index === 0 ? limits.initialWords : limits.monthlyWords);
}

/** Words a plan gives for the allowance period with this index (0 = the first month), as kept in the database. */
export function periodWords(limits: PlanLimits, index: number): number {
  return unlimitedWordsIn(limits, index) ? UNLIMITED_WORDS : index === 0 ? limits.initialWords : limits.monthlyWords;
}

/** `1,000 words left` (with `until …` when `periodEnd` is given) or `no word limit`, for the admin CLI. */
export function describeWords(plan: string, wordsRemaining: number, periodEnd?: Date): string {
  if (isUnlimited(plan)) return 'no word limit';
  return `${wordsRemaining.toLocaleString('en-US')} words left${periodEnd ? ` until ${periodEnd.toISOString()}` : ''}`;
}

/** A limit for JSON: `null` means none. */
export function limitOrNull(limit: number): number | null {
  return Number.isFinite(limit) ? limit : null;
}

/** Whether `other` allows at least what `current` does, in every limit. */
function noLessThan(other: PlanLimits, current: PlanLimits): boolean {
  return (
    other.initialWords >= current.initialWords &&
    other.monthlyWords >= current.monthlyWords &&
    other.maxProjects >= current.maxProjects &&
    other.maxLocaleRows >= current.maxLocaleRows &&
    other.seats >= current.seats &&
    (other.canMintTokens || !current.canMintTokens)
  );
}

/**
 * What a refused user can do: on the hosted service, upgrade; on a self-hosted instance, the admin command with the
 * configured plans that would allow it (`wanted`), the first one spelled out. Plans that would take away something the
 * current plan gives are suggested only when no other plan allows it.
 */
export function remedy(org: { id: string; plan: string }, wanted: (limits: PlanLimits) => boolean, hostedAdvice: string): string {
  if (active.hosted) return hostedAdvice;
  const current = findPlan(org.plan);
  const allowing = planNames().filter((name) => name !== org.plan && wanted(active.plans[name]!));
  const upgrades = current ? allowing.filter((name) => noLessThan(active.plans[name]!, current)) : allowing;
  const candidates = upgrades.length > 0 ? upgrades : allowing;
  if (candidates.length === 0) return 'No plan configured on this instance allows more; an operator can add one to PARLANCE_PLANS.';
  const [first, ...others] = candidates;
  const alternatives = others.length > 0 ? ` (or ${others.join(', ')})` : '';
  return `On this self-hosted instance an operator can run \`parlance admin org set-plan ${org.id} ${first}\`${alternatives}.`;
}

/** The allowance period that contains `now`, for periods of one calendar month starting at `anchor`. */
export function periodContaining(anchor: Date, now: Date): { start: Date; end: Date; index: number } {
  let index = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  if (addMonths(anchor, index) > now) index -= 1;
  index = Math.max(index, 0);
  return { start: addMonths(anchor, index), end: addMonths(anchor, index + 1), index };
}

export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

// ---- PARLANCE_PLANS -------------------------------------------------------------------------------------------------

/** A count with a floor, or 'unlimited' (→ Infinity); the message quotes the bad value and the expected form. */
function limit(min: number, unit: string, max = Number.MAX_SAFE_INTEGER) {
  const range = max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max.toLocaleString('en-US')}` : `, ${min} or more`;
  const expected = `expected a whole number of ${unit}${range}, or 'unlimited'`;
  return z.unknown().transform((value, ctx) => {
    if (value === 'unlimited') return Infinity;
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    const why = typeof value === 'number' && value < min ? (value < 0 ? 'is negative' : `is below ${min}`) : typeof value === 'number' && value > max ? 'is too large' : 'is not a count';
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} ${why}; ${expected}` });
    return z.NEVER;
  });
}

const PLAN_FIELDS = {
  initial_words: limit(0, 'words', MAX_PLAN_WORDS),
  monthly_words: limit(0, 'words', MAX_PLAN_WORDS),
  seats: limit(1, 'seats'),
  locale_rows: limit(1, 'locale rows (the source counts as one)'),
  projects: limit(1, 'projects'),
  tokens: z.boolean({ error: (issue) => `${JSON.stringify(issue.input)} is not true or false; expected true (API tokens may be minted) or false` }),
};
const FIELD_NAMES = Object.keys(PLAN_FIELDS);
const fullPlan = z.strictObject(PLAN_FIELDS);
/** Overriding a built-in plan: the fields it leaves out keep the built-in values. */
const planOverride = fullPlan.partial();

function toLimits(fields: z.infer<typeof planOverride>, base: PlanLimits | undefined): PlanLimits {
  const pick = (value: number | boolean | undefined, fallback: number | boolean | undefined) => (value ?? fallback)!;
  return {
    initialWords: pick(fields.initial_words, base?.initialWords) as number,
    monthlyWords: pick(fields.monthly_words, base?.monthlyWords) as number,
    seats: pick(fields.seats, base?.seats) as number,
    maxLocaleRows: pick(fields.locale_rows, base?.maxLocaleRows) as number,
    maxProjects: pick(fields.projects, base?.maxProjects) as number,
    canMintTokens: pick(fields.tokens, base?.canMintTokens) as boolean,
  };
}

/** Plan definitions as parsed from JSON or YAML: built-in plans with the operator's overrides, then new plans. */
export function parsePlanDefinitions(data: unknown, where: string): { ok: true; plans: Record<string, PlanLimits> } | { ok: false; problems: string[] } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, problems: [`${where}: expected an object of plans by name, such as {"team": {"initial_words": 500000, "monthly_words": 500000, "seats": 10, "locale_rows": "unlimited", "projects": "unlimited", "tokens": true}}`] };
  }
  const problems: string[] = [];
  const plans: Record<string, PlanLimits> = { ...BUILT_IN_PLANS };
  for (const [name, definition] of Object.entries(data)) {
    if (!PLAN_NAME.test(name)) {
      problems.push(`${where}: plan '${name}': not a valid plan name; expected lower-case letters, digits, '-' or '_', starting with a letter (at most 32)`);
      continue;
    }
    const builtIn = BUILT_IN_PLANS[name];
    if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
      problems.push(`${where}: plan '${name}': expected an object with the fields ${FIELD_NAMES.join(', ')}`);
      continue;
    }
    const parsed = (builtIn ? planOverride : fullPlan).safeParse(definition);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.code === 'unrecognized_keys') {
          problems.push(`${where}: plan '${name}': unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}; expected ${FIELD_NAMES.join(', ')}`);
        } else if (issue.path.length > 0 && (definition as Record<string, unknown>)[String(issue.path[0])] === undefined) {
          problems.push(`${where}: plan '${name}', field '${String(issue.path[0])}': missing; a new plan names every field (${FIELD_NAMES.join(', ')})`);
        } else {
          problems.push(`${where}: plan '${name}', field '${issue.path.map(String).join('.')}': ${issue.message}`);
        }
      }
      continue;
    }
    plans[name] = toLimits(parsed.data, builtIn);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, plans };
}

/**
 * PARLANCE_PLANS: inline JSON (it starts with `{`) or the path of a JSON or YAML (.yaml, .yml) file. Problems name
 * the variable, the file, the plan and the field.
 */
export function parsePlansSetting(
  value: string | undefined,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
  sizeOf: (path: string) => number = (path) => statSync(path).size,
): { ok: true; plans: Record<string, PlanLimits> } | { ok: false; problems: string[] } {
  if (value === undefined || value.trim() === '') return { ok: true, plans: { ...BUILT_IN_PLANS } };
  const text = value.trim();
  if (text.startsWith('{')) {
    const where = 'PARLANCE_PLANS (inline JSON)';
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      return { ok: false, problems: [`${where}: not valid JSON (${(error as Error).message})`] };
    }
    return parsePlanDefinitions(data, where);
  }
  const path = resolve(text);
  const where = `PARLANCE_PLANS file '${path}'`;
  let source: string;
  try {
    const size = sizeOf(path);
    if (size > MAX_PLANS_FILE_BYTES) return { ok: false, problems: [`${where}: ${size} bytes; a plans file may have at most ${MAX_PLANS_FILE_BYTES} bytes`] };
    source = readFile(path);
  } catch (error) {
    return { ok: false, problems: [`${where}: cannot read it (${(error as Error).message}); expected a JSON or YAML file of plans, or inline JSON starting with '{'`] };
  }
  const yaml = ['.yaml', '.yml'].includes(extname(path).toLowerCase());
  let data: unknown;
  try {
    data = yaml ? parseYaml(source, { uniqueKeys: true }) : JSON.parse(source);
  } catch (error) {
    return { ok: false, problems: [`${where}: not valid ${yaml ? 'YAML' : 'JSON'} (${(error as Error).message.split('\n')[0]})`] };
  }
  return parsePlanDefinitions(data, where);
}

/** PARLANCE_PLANS, PARLANCE_DEFAULT_PLAN and PARLANCE_HOSTED together, or the problems that stop start-up. */
export function planSettingsFromEnv(
  e: { PARLANCE_PLANS?: string | undefined; PARLANCE_DEFAULT_PLAN?: string | undefined; PARLANCE_HOSTED: 'true' | 'false' },
  readFile?: (path: string) => string,
  sizeOf?: (path: string) => number,
): { ok: true; settings: PlanSettings } | { ok: false; problems: string[] } {
  const parsed = parsePlansSetting(e.PARLANCE_PLANS, readFile, sizeOf);
  if (!parsed.ok) return parsed;
  const defaultPlan = e.PARLANCE_DEFAULT_PLAN ?? 'free';
  if (!Object.hasOwn(parsed.plans, defaultPlan)) {
    return { ok: false, problems: [`PARLANCE_DEFAULT_PLAN='${defaultPlan}': no such plan; expected one of ${Object.keys(parsed.plans).join(', ')}`] };
  }
  return { ok: true, settings: { plans: parsed.plans, defaultPlan, hosted: e.PARLANCE_HOSTED === 'true' } };
}
