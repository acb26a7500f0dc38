/** `parlance translation`: the project's translation settings (provider and model per pass, style guide); `set` needs 'manage'. */
import { z } from 'zod';
import type { ProviderKind, TranslationSettings, TranslationSettingsPatch } from '../../client/types.js';
import { CommandError } from '../../sync/command-error.js';
import { noMorePositionals, parseFlags, positional, type Command } from './command.js';
import { readStdin } from './login.js';

const USAGE = `parlance translation show
       parlance translation set [--fast-provider P] [--fast-model M] [--careful-provider P] [--careful-model M]
                                [--product TEXT] [--audience TEXT] [--tone TEXT] [--formality LOCALE=formal|informal ...]
                                [--keep WORD ...] [--unset FIELD ...]
                                [--own-key-stdin PROVIDER] [--remove-own-key PROVIDER ...]`;

/** The providers a project may bring its own API key for. */
const OWN_KEY_KINDS = ['openai', 'anthropic', 'deepl'] as const;

const KINDS = ['pseudo', 'openai', 'anthropic', 'deepl', 'libretranslate'] as const satisfies readonly ProviderKind[];
/** The fields --unset returns to the operator's default (a choice) or to empty (the style guide). */
const UNSETTABLE = ['fast-provider', 'fast-model', 'careful-provider', 'careful-model', 'product', 'audience', 'tone', 'formality', 'keep'] as const;

const Flags = z.object({
  'fast-provider': z.enum(KINDS).optional(),
  'fast-model': z.string().trim().min(1).optional(),
  'careful-provider': z.enum(KINDS).optional(),
  'careful-model': z.string().trim().min(1).optional(),
  product: z.string().optional(),
  audience: z.string().optional(),
  tone: z.string().optional(),
  formality: z
    .array(z.string().regex(/^[A-Za-z0-9-]+=(formal|informal)$/, "expected LOCALE=formal or LOCALE=informal, e.g. 'de=informal'"))
    .optional(),
  keep: z.array(z.string().trim().min(1)).optional(),
  unset: z.array(z.enum(UNSETTABLE)).optional(),
  'own-key-stdin': z.enum(OWN_KEY_KINDS).optional(),
  'remove-own-key': z.array(z.enum(OWN_KEY_KINDS)).optional(),
});

export const translationCommand: Command = {
  name: 'translation',
  summary: 'show | set: provider, model and style guide of this project',
  help: `Usage: ${USAGE}

The project's translation settings. 'show' prints the provider and model of each pass (the operator's when
unset), the providers this service offers, and the style guide every request carries. 'set' changes what its flags
name and keeps the rest (needs a token with 'manage'); --unset returns a choice to the operator's default or empties
a style-guide field. --formality and --keep repeat, and replace the whole list. A change applies to the next push;
nothing is re-translated by itself ('parlance translate-missing --machine' does, on request).

The project's own API key for a provider (openai, anthropic, deepl) is read from stdin, never the command line:
  printf %s "$OPENAI_KEY" | parlance translation set --own-key-stdin openai
Its requests then carry that key instead of the operator's; the service stores it encrypted and shows only its
last four characters. --remove-own-key openai goes back to the operator's.`,
  options: {
    'fast-provider': { type: 'string' },
    'fast-model': { type: 'string' },
    'careful-provider': { type: 'string' },
    'careful-model': { type: 'string' },
    product: { type: 'string' },
    audience: { type: 'string' },
    tone: { type: 'string' },
    formality: { type: 'string', multiple: true },
    keep: { type: 'string', multiple: true },
    unset: { type: 'string', multiple: true },
    'own-key-stdin': { type: 'string' },
    'remove-own-key': { type: 'string', multiple: true },
  },
  async run(context, { values, positionals }) {
    const { out } = context;
    const client = context.client();
    const action = positional(positionals, 0, `Missing the translation action. Usage: ${USAGE}`);
    noMorePositionals(positionals, 1, `parlance translation ${action}`);
    switch (action) {
      case 'show': {
        const settings = await client.translationSettings();
        out.document(settings);
        for (const line of settingsLines(settings)) out.line(line);
        return 0;
      }
      case 'set': {
        const flags = parseFlags(Flags, values);
        const patch = patchOf(flags);
        const ownKeys = await ownKeysOf(flags);
        if (ownKeys) patch.own_keys = ownKeys;
        if (Object.keys(patch).length === 0) throw new CommandError(`Nothing to set: name at least one setting. Usage: ${USAGE}`);
        const settings = await client.updateTranslationSettings(patch);
        out.document(settings);
        for (const line of settingsLines(settings)) out.line(line);
        return 0;
      }
      default:
        throw new CommandError(`Unknown translation action '${action}'. Usage: ${USAGE}`);
    }
  },
};

/** A key from stdin for --own-key-stdin, null for each --remove-own-key; undefined when neither is given. */
async function ownKeysOf(flags: z.infer<typeof Flags>): Promise<NonNullable<TranslationSettingsPatch['own_keys']> | undefined> {
  const adding = flags['own-key-stdin'];
  const removing = flags['remove-own-key'] ?? [];
  if (adding === undefined && removing.length === 0) return undefined;
  if (adding !== undefined && removing.includes(adding)) throw new CommandError(`--own-key-stdin ${adding} and --remove-own-key ${adding} contradict each other: give one`);
  const keys: NonNullable<TranslationSettingsPatch['own_keys']> = Object.fromEntries(removing.map((kind) => [kind, null]));
  if (adding !== undefined) {
    const key = (await readStdin(4096, `one ${adding} API key`)).trim();
    if (key === '') throw new CommandError(`No key on stdin. Pipe the ${adding} API key in: printf %s "$KEY" | parlance translation set --own-key-stdin ${adding}`);
    if (/\s/.test(key)) throw new CommandError(`Expected one ${adding} API key on stdin, found ${key.split(/\s+/).length} words. Give the key alone.`);
    keys[adding] = key;
  }
  return keys;
}

function patchOf(flags: z.infer<typeof Flags>): TranslationSettingsPatch {
  const unset = new Set(flags.unset ?? []);
  for (const field of unset) {
    const camel = field as keyof typeof flags;
    if (flags[camel] !== undefined) throw new CommandError(`--${field} and --unset ${field} contradict each other: give one`);
  }
  const choice = (pass: 'fast' | 'careful') => {
    const provider = unset.has(`${pass}-provider`) ? null : flags[`${pass}-provider`];
    const model = unset.has(`${pass}-model`) ? null : flags[`${pass}-model`];
    return provider === undefined && model === undefined ? undefined : { ...(provider !== undefined ? { provider } : {}), ...(model !== undefined ? { model } : {}) };
  };
  const text = (field: 'product' | 'audience' | 'tone') => (unset.has(field) ? null : flags[field]);
  const style = {
    ...(text('product') !== undefined ? { product: text('product') } : {}),
    ...(text('audience') !== undefined ? { audience: text('audience') } : {}),
    ...(text('tone') !== undefined ? { tone: text('tone') } : {}),
    ...(unset.has('formality') ? { formality: {} } : flags.formality ? { formality: Object.fromEntries(flags.formality.map((pair) => pair.split('=') as [string, 'formal' | 'informal'])) } : {}),
    ...(unset.has('keep') ? { keep: [] } : flags.keep ? { keep: flags.keep } : {}),
  };
  const fast = choice('fast');
  const careful = choice('careful');
  return { ...(fast ? { fast } : {}), ...(careful ? { careful } : {}), ...(Object.keys(style).length > 0 ? { style_guide: style } : {}) };
}

/** What `show` and `set` print: each pass, what is offered, and the style guide. */
export function settingsLines(settings: TranslationSettings): string[] {
  const pass = (name: 'fast' | 'careful') => {
    const own = settings[name];
    const fallback = settings.defaults[name];
    const provider = own.provider ?? fallback.provider;
    const model = own.model ?? (own.provider === null || own.provider === fallback.provider ? fallback.model : null);
    const mine = own.provider !== null || own.model !== null;
    return `${name.padEnd(8)} ${provider}${model ? ` ${model}` : ''}${mine ? '' : " (the operator's default)"}`;
  };
  const g = settings.style_guide;
  const formality = Object.entries(g.formality).map(([locale, value]) => `${locale} ${value}`);
  return [
    pass('fast'),
    pass('careful'),
    `offered  ${settings.available.join(', ')}`,
    `product  ${g.product ?? '-'}`,
    `audience ${g.audience ?? '-'}`,
    `tone     ${g.tone ?? '-'}`,
    `formal   ${formality.length > 0 ? formality.join(', ') : '-'}`,
    `keep     ${g.keep.length > 0 ? g.keep.join(', ') : '-'}`,
    `own keys ${Object.entries(settings.own_keys).length > 0 ? Object.entries(settings.own_keys).map(([kind, hint]) => `${kind} ${hint}`).join(', ') : "- (the operator's)"}`,
    ...(settings.own_keys_problem ? [`problem  ${settings.own_keys_problem}`] : []),
  ];
}
