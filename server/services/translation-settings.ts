/**
 * A project's translation settings: the provider and model of each pass (from the providers the operator configured;
 * credentials stay with the operator), and a style guide sent with every request. Read per chunk by the batch
 * runner, so a change applies to the next chunk without a restart; it re-translates nothing by itself.
 */
import { z } from 'zod';
import { OWN_KEY_KINDS, PROVIDER_KINDS, UNINSTRUCTABLE, type OwnKeyKind, type OwnKeys, type ProviderKind } from '../config.js';
import { openSecret, sealSecret, SECRET_KEY_HINT, SecretDecryptionError } from '../github-app/crypto.js';
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

export type { OwnKeys };

/** The bounds of one own key: long enough for any vendor's, printable, no spaces. */
export const OWN_KEY_PATTERN = /^[\x21-\x7e]{8,512}$/;

const sealContext = (projectId: string) => `projects:${projectId}:provider_keys`;

/** The project's own keys as sealed; throws an ApiError when some are stored and PARLANCE_SECRET_KEY cannot open them. */
function openOwnKeys(sealed: string | null, projectId: string, secretKey: Uint8Array | undefined): OwnKeys {
  if (sealed === null) return {};
  if (!secretKey) {
    throw new ApiError(503, 'secret_key_missing', `This project's own provider keys are stored encrypted, and PARLANCE_SECRET_KEY is not set. The operator sets it back to the key they were stored with, or the project sets its keys again.`);
  }
  try {
    const parsed = z.partialRecord(z.enum(OWN_KEY_KINDS), z.string()).parse(JSON.parse(openSecret(secretKey, sealed, sealContext(projectId))));
    return parsed;
  } catch (error) {
    if (!(error instanceof SecretDecryptionError)) throw error;
    throw new ApiError(503, 'own_keys_unreadable', `This project's own provider keys do not open with the service's PARLANCE_SECRET_KEY (it changed since they were stored). Set them again with PATCH /v1/project/translation own_keys, or remove them with null.`);
  }
}

/**
 * Applies a change of own keys (a key sets, null removes) and stores the result sealed; needs PARLANCE_SECRET_KEY to
 * set one. Keys that no longer open may only be replaced or removed all at once (`own_keys` naming every stored kind).
 */
export async function changeOwnKeys(db: Db, projectId: string, secretKey: Uint8Array | undefined, change: Partial<Record<OwnKeyKind, string | null>>): Promise<OwnKeys> {
  const row = await db.selectFrom('projects').select('provider_keys').where('id', '=', projectId).executeTakeFirst();
  let current: OwnKeys;
  try {
    current = openOwnKeys(row?.provider_keys ?? null, projectId, secretKey);
  } catch (error) {
    // Keys sealed under another secret key are lost: a change may start again from nothing.
    if (!(error instanceof ApiError) || error.code !== 'own_keys_unreadable') throw error;
    current = {};
  }
  const next: OwnKeys = { ...current };
  for (const kind of OWN_KEY_KINDS) {
    const value = change[kind];
    if (value === null) delete next[kind];
    else if (value !== undefined) next[kind] = value;
  }
  if (Object.keys(next).length === 0) {
    await db.updateTable('projects').set({ provider_keys: null }).where('id', '=', projectId).execute();
    return next;
  }
  if (!secretKey) {
    throw new ApiError(503, 'secret_key_missing', `A project's own provider keys are stored encrypted, and PARLANCE_SECRET_KEY is not set. The operator sets it to ${SECRET_KEY_HINT}, then restarts the service.`);
  }
  await db.updateTable('projects').set({ provider_keys: sealSecret(secretKey, JSON.stringify(next), sealContext(projectId)) }).where('id', '=', projectId).execute();
  return next;
}

/** What GET shows of each own key: its last four characters, never the key. */
export function ownKeyHints(keys: OwnKeys): Partial<Record<OwnKeyKind, string>> {
  return Object.fromEntries(Object.entries(keys).map(([kind, key]) => [kind, `…${key.slice(-4)}`]));
}

/**
 * What the worker reads per chunk, in one query: the settings, and the own keys or why they do not open (rows that
 * need a provider then fail with that reason rather than spend the operator's credentials).
 */
export async function readTranslationSetup(db: Db, projectId: string, secretKey: Uint8Array | undefined): Promise<{ settings: TranslationSettings; ownKeys: OwnKeys | { problem: string } }> {
  const row = await db.selectFrom('projects').select(['translation_settings', 'provider_keys']).where('id', '=', projectId).executeTakeFirst();
  let ownKeys: OwnKeys | { problem: string };
  try {
    ownKeys = openOwnKeys(row?.provider_keys ?? null, projectId, secretKey);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 503) throw error;
    ownKeys = { problem: error.message };
  }
  return { settings: settingsOf(row?.translation_settings), ownKeys };
}
