/**
 * A project's translation settings: the provider and model of each pass (from the providers the operator configured;
 * credentials stay with the operator), and a style guide sent with every request. Read per chunk by the batch
 * runner, so a change applies to the next chunk without a restart; it re-translates nothing by itself.
 */
import { z } from 'zod';
import { PROVIDER_KINDS, UNINSTRUCTABLE, type ProviderKind } from '../config.js';
import type { Db } from '../db/database.js';
import { ApiError } from '../errors.js';
import type { StyleGuide } from '../providers/provider.js';

/** How long each field may be: the stored shape here and PATCH /v1/project/translation read the same bounds. */
export const SETTINGS_LIMITS = { text: 2000, keep: 200, word: 200, model: 200, locale: 35 } as const;

const PassChoice = z
  .object({
    provider: z.enum(PROVIDER_KINDS).nullable(),
    model: z.string().trim().min(1).max(SETTINGS_LIMITS.model).nullable(),
  })
  .strict();

export const TranslationSettingsSchema = z
  .object({
    fast: PassChoice,
    careful: PassChoice,
    style_guide: z
      .object({
        product: z.string().trim().max(SETTINGS_LIMITS.text).nullable(),
        audience: z.string().trim().max(SETTINGS_LIMITS.text).nullable(),
        tone: z.string().trim().max(SETTINGS_LIMITS.text).nullable(),
        formality: z.record(z.string().min(1).max(SETTINGS_LIMITS.locale), z.enum(['formal', 'informal'])),
        keep: z.array(z.string().trim().min(1).max(SETTINGS_LIMITS.word)).max(SETTINGS_LIMITS.keep),
      })
      .strict(),
  })
  .strict();

export type TranslationSettings = z.infer<typeof TranslationSettingsSchema>;

export const DEFAULT_TRANSLATION_SETTINGS: TranslationSettings = {
  fast: { provider: null, model: null },
  careful: { provider: null, model: null },
  style_guide: { product: null, audience: null, tone: null, formality: {}, keep: [] },
};

/** The stored settings over the defaults; a stored value that no longer parses (an older shape) counts as unset. */
export function settingsOf(stored: unknown): TranslationSettings {
  if (stored === null || stored === undefined) return DEFAULT_TRANSLATION_SETTINGS;
  const parsed = TranslationSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_TRANSLATION_SETTINGS;
}

export async function readTranslationSettings(db: Db, projectId: string): Promise<TranslationSettings> {
  const row = await db.selectFrom('projects').select('translation_settings').where('id', '=', projectId).executeTakeFirst();
  return settingsOf(row?.translation_settings);
}

/** The kinds whose requests name a model. */
const HAS_MODEL: ReadonlySet<ProviderKind> = new Set(['openai', 'anthropic']);

/**
 * Checks a complete settings value against what the operator configured; throws a 422 naming the field and the
 * choices. The careful pass needs a provider that reads instructions; a model needs a provider that takes one.
 */
export function checkSettings(settings: TranslationSettings, catalog: ReadonlySet<ProviderKind>, defaults: { fast: ProviderKind; careful: ProviderKind }): void {
  const available = [...catalog].sort();
  for (const pass of ['fast', 'careful'] as const) {
    const choice = settings[pass];
    if (choice.provider !== null && !catalog.has(choice.provider)) {
      throw new ApiError(422, 'provider_not_configured', `${pass}.provider '${choice.provider}' is not configured on this service; expected one of ${available.map((k) => `'${k}'`).join(', ')} or null for the operator's default`, { field: `${pass}.provider` });
    }
    const kind = choice.provider ?? defaults[pass];
    if (pass === 'careful' && UNINSTRUCTABLE.has(kind)) {
      throw new ApiError(422, 'provider_not_instructable', `careful.provider '${kind}' is a machine-translation engine that takes no instructions; expected 'openai', 'anthropic' or 'pseudo'`, { field: 'careful.provider' });
    }
    if (choice.model !== null && !HAS_MODEL.has(kind)) {
      throw new ApiError(422, 'model_not_applicable', `${pass}.model '${choice.model}': ${kind} takes no model name; set it to null, or choose 'openai' or 'anthropic'`, { field: `${pass}.model` });
    }
  }
}

export async function writeTranslationSettings(db: Db, projectId: string, settings: TranslationSettings): Promise<void> {
  await db.updateTable('projects').set({ translation_settings: JSON.stringify(settings) }).where('id', '=', projectId).execute();
}

/** The style guide as the providers read it; undefined when nothing is set. */
export function styleGuideOf(settings: TranslationSettings): StyleGuide | undefined {
  const g = settings.style_guide;
  const style: StyleGuide = {
    ...(g.product ? { product: g.product } : {}),
    ...(g.audience ? { audience: g.audience } : {}),
    ...(g.tone ? { tone: g.tone } : {}),
    ...(Object.keys(g.formality).length > 0 ? { formality: g.formality } : {}),
    ...(g.keep.length > 0 ? { keep: g.keep } : {}),
  };
  return Object.keys(style).length > 0 ? style : undefined;
}
