/** GET and PATCH /v1/project/translation: the project's provider and model per pass, and its style guide. */
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { OWN_KEY_KINDS, PROVIDER_KINDS, type ProviderKind } from '../../config.js';
import type { AppDeps, AppEnv } from '../../http/context.js';
import { requireAbility } from '../../http/middleware/require-ability.js';
import {
  changeOwnKeys,
  checkSettings,
  ownKeyHints,
  OWN_KEY_PATTERN,
  readTranslationSetup,
  SETTINGS_LIMITS as LIMITS,
  writeTranslationSettings,
  type OwnKeys,
  type TranslationSettings,
} from '../../services/translation-settings.js';
import { problemResponses } from './schemas.js';
import { json } from './route-shapes.js';

const Choice = z
  .object({
    provider: z.enum(PROVIDER_KINDS).nullable().openapi({ description: "One of `available`; null: the operator's provider for this pass." }),
    model: z.string().nullable().openapi({ description: "The model to ask (openai, anthropic); null: the operator's." }),
  })
  .openapi('TranslationChoice');

const StyleGuide = z
  .object({
    product: z.string().nullable().openapi({ description: 'What the product is and does, in a sentence or two (at most 2,000 characters).' }),
    audience: z.string().nullable(),
    tone: z.string().nullable().openapi({ description: "The voice, e.g. 'friendly and brief'." }),
    formality: z.record(z.string(), z.enum(['formal', 'informal'])).openapi({ description: 'Per target locale: address the reader formally or informally. DeepL gets it as `formality` (prefer_more / prefer_less).' }),
    keep: z.array(z.string()).openapi({ description: 'Words and names to keep untranslated (at most 200).' }),
  })
  .openapi('StyleGuide');

const Settings = z
  .object({
    fast: Choice,
    careful: Choice,
    style_guide: StyleGuide,
    available: z.array(z.enum(PROVIDER_KINDS)).openapi({ description: "The providers this project may choose: those the operator configured (with the operator's credentials), and each kind the project set its own key for." }),
    own_keys: z.partialRecord(z.enum(OWN_KEY_KINDS), z.string()).openapi({ description: "The project's own API keys, by provider, as their last four characters; the keys themselves are never shown.", example: { openai: '…x9Qa' } }),
    own_keys_problem: z.string().nullable().openapi({ description: 'Set when stored own keys cannot be opened (PARLANCE_SECRET_KEY unset or changed): they are not used, and requests of that kind fail until they are set again or removed.' }),
    defaults: z.object({ fast: z.object({ provider: z.enum(PROVIDER_KINDS), model: z.string().nullable() }), careful: z.object({ provider: z.enum(PROVIDER_KINDS), model: z.string().nullable() }) }),
  })
  .openapi('TranslationSettings');

const ChoicePatch = z.object({ provider: z.enum(PROVIDER_KINDS).nullable().optional(), model: z.string().trim().min(1).max(LIMITS.model).nullable().optional() }).strict();

const SettingsPatch = z
  .object({
    fast: ChoicePatch.optional(),
    careful: ChoicePatch.optional(),
    style_guide: z
      .object({
        product: z.string().trim().max(LIMITS.text).nullable().optional(),
        audience: z.string().trim().max(LIMITS.text).nullable().optional(),
        tone: z.string().trim().max(LIMITS.text).nullable().optional(),
        formality: z.record(z.string().min(1).max(LIMITS.locale), z.enum(['formal', 'informal'])).optional(),
        keep: z.array(z.string().trim().min(1).max(LIMITS.word)).max(LIMITS.keep).optional(),
      })
      .strict()
      .optional(),
    own_keys: z
      .object(
        Object.fromEntries(
          OWN_KEY_KINDS.map((kind) => [
            kind,
            z.string().trim().regex(OWN_KEY_PATTERN, `expected the ${kind} API key: 8 to 512 printable characters without spaces`).nullable().optional(),
          ]),
        ) as Record<(typeof OWN_KEY_KINDS)[number], z.ZodOptional<z.ZodNullable<z.ZodString>>>,
      )
      .strict()
      .optional()
      .openapi({
        description:
          "The project's own API key per provider (openai, anthropic, deepl): requests of that kind then carry it instead of the operator's (the operator's base URL and limits still apply, with a limit of its own), and the kind becomes available to the project. Stored encrypted with PARLANCE_SECRET_KEY (503 when unset); null removes one. Write-only: GET shows the last four characters.",
      }),
  })
  .strict()
  .openapi('TranslationSettingsPatch');

export function translationSettingsRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  const { catalog, defaults, secretKey } = deps.translationProviders;
  /** What the project may choose: the operator's catalog and each kind it brought a key for. */
  const offered = (keys: OwnKeys) => new Set<ProviderKind>([...catalog, ...(Object.keys(keys) as ProviderKind[])]);
  const view = (settings: TranslationSettings, keys: OwnKeys, problem: string | null = null) => ({
    ...settings,
    available: [...offered(keys)].sort(),
    defaults,
    own_keys: ownKeyHints(keys),
    own_keys_problem: problem,
  });
  /** The own keys, or none and why when they do not open: GET still shows the rest. */
  const keysOf = (ownKeys: OwnKeys | { problem: string }): [OwnKeys, string | null] => ('problem' in ownKeys && typeof ownKeys.problem === 'string' ? [{}, ownKeys.problem] : [ownKeys as OwnKeys, null]);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/project/translation',
      summary: "The project's translation settings",
      description: 'Ability: `read`. The provider and model of each pass (null: the operator\'s, shown in `defaults`) and the style guide sent with every request.',
      middleware: [requireAbility('read')] as const,
      responses: { 200: json('The settings', Settings), ...problemResponses },
    }),
    async (c) => {
      // Settings and keys in one read, as the worker reads them.
      const { settings, ownKeys } = await readTranslationSetup(deps.db, c.get('auth').project.id, secretKey);
      const [keys, problem] = keysOf(ownKeys);
      return c.json(view(settings, keys, problem), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/project/translation',
      summary: "Change the project's translation settings",
      description:
        "Ability: `manage`. Fields left out keep their value; null returns a choice to the operator's default. Applies from the next chunk of a running batch on, without a restart, and re-translates nothing by itself: changed sources use it, and `POST /v1/translate-missing` with `retranslate_machine` re-translates what a machine made (a person's translations stay). Machine translations are remembered per style guide, so a re-translation after a change asks the provider again and another project's guide never reuses them. 422 names a provider the service does not offer, an MT engine on the careful pass, or a model for a provider that takes none.",
      middleware: [requireAbility('manage')] as const,
      request: { body: { required: true, content: { 'application/json': { schema: SettingsPatch } } } },
      responses: { 200: json('The changed settings', Settings), ...problemResponses },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const projectId = c.get('auth').project.id;
      // Read, merged and written in one transaction; settings and keys change together, so a choice of a kind checks
      // against the keys it will have.
      const [next, keys, problem] = await deps.db.transaction().execute(async (trx): Promise<[TranslationSettings, OwnKeys, string | null]> => {
        const current = await readTranslationSetup(trx, projectId, secretKey);
        const merged: TranslationSettings = {
          fast: { ...current.settings.fast, ...body.fast },
          careful: { ...current.settings.careful, ...body.careful },
          style_guide: { ...current.settings.style_guide, ...body.style_guide },
        };
        const [found, problem] = body.own_keys ? ([await changeOwnKeys(trx, projectId, secretKey, body.own_keys), null] as [OwnKeys, null]) : keysOf(current.ownKeys);
        checkSettings(merged, offered(found), { fast: defaults.fast.provider, careful: defaults.careful.provider });
        await writeTranslationSettings(trx, projectId, merged);
        return [merged, found, problem];
      });
      return c.json(view(next, keys, problem), 200);
    },
  );

  return app;
}
