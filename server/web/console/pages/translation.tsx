/** Translation: the provider and model of each pass, and the style guide sent with every request (GET and PATCH /v1/project/translation). */
import { useState } from 'preact/hooks';
import type { Language, OwnKeyKind, TranslationSettings, TranslationSettingsPatch } from '../../../../src/client/types.js';
import { ErrorNotice, Field, FormActions, InputField, Loading, Notice, ProjectPage, SuccessNotice } from '../components.js';
import { useAccount, useProject } from '../context.js';
import { localeLabel } from '../format.js';
import { useLoad, useRequest } from '../hooks.js';

export function TranslationPage() {
  return (
    <ProjectPage
      title="Translation"
      ability="read"
      intro={
        <p>
          Which provider and model translate each pass, and the style guide sent with every request. A change applies from the next chunk of a running batch on and
          re-translates nothing by itself: changed sources use it, and <code>parlance translate-missing --machine</code> re-translates what a machine made (a person's
          translations stay).
        </p>
      }
    >
      <TranslationSettingsForm />
    </ProjectPage>
  );
}

const PASSES = [
  { pass: 'fast', label: 'Fast pass', hint: 'Translates every new or changed string that is not marked careful.' },
  { pass: 'careful', label: 'Careful pass', hint: 'Translates the keys marked careful, with their context and a self-check; it needs a provider that reads instructions.' },
] as const;
type Pass = (typeof PASSES)[number]['pass'];
type Formality = '' | 'formal' | 'informal';

/** The form's values as typed: an empty string is the operator's default (or no value). */
interface Draft {
  fast: { provider: string; model: string };
  careful: { provider: string; model: string };
  product: string;
  audience: string;
  tone: string;
  formality: Record<string, Formality>;
  keep: string;
  /** A new own key per provider as typed (empty: unchanged), and the stored ones to remove. */
  ownKeys: Record<OwnKeyKind, string>;
  removeKeys: OwnKeyKind[];
}

const OWN_KEY_KINDS: readonly OwnKeyKind[] = ['openai', 'anthropic', 'deepl'];

function draftOf(settings: TranslationSettings): Draft {
  const guide = settings.style_guide;
  return {
    fast: { provider: settings.fast.provider ?? '', model: settings.fast.model ?? '' },
    careful: { provider: settings.careful.provider ?? '', model: settings.careful.model ?? '' },
    product: guide.product ?? '',
    audience: guide.audience ?? '',
    tone: guide.tone ?? '',
    formality: { ...guide.formality },
    keep: guide.keep.join(', '),
    ownKeys: { openai: '', anthropic: '', deepl: '' },
    removeKeys: [],
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());
const keepList = (text: string) => text.split(',').map((word) => word.trim()).filter(Boolean);
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** What differs between the draft and the stored settings, as PATCH takes it; undefined when nothing does. */
function patchOf(draft: Draft, stored: TranslationSettings): TranslationSettingsPatch | undefined {
  const patch: TranslationSettingsPatch = {};
  for (const { pass } of PASSES) {
    const provider = orNull(draft[pass].provider) as TranslationSettings[Pass]['provider'];
    const model = orNull(draft[pass].model);
    const changed: NonNullable<TranslationSettingsPatch[Pass]> = {};
    if (provider !== stored[pass].provider) changed.provider = provider;
    if (model !== stored[pass].model) changed.model = model;
    if (Object.keys(changed).length > 0) patch[pass] = changed;
  }
  const guide = stored.style_guide;
  const style: NonNullable<TranslationSettingsPatch['style_guide']> = {};
  for (const field of ['product', 'audience', 'tone'] as const) {
    const value = orNull(draft[field]);
    if (value !== guide[field]) style[field] = value;
  }
  const formality: Record<string, 'formal' | 'informal'> = {};
  for (const [locale, value] of Object.entries(draft.formality)) if (value) formality[locale] = value;
  const storedFormality = Object.entries(guide.formality);
  if (storedFormality.length !== Object.keys(formality).length || storedFormality.some(([locale, value]) => formality[locale] !== value)) style.formality = formality;
  const keep = keepList(draft.keep);
  if (!sameList(keep, guide.keep)) style.keep = keep;
  if (Object.keys(style).length > 0) patch.style_guide = style;
  const ownKeys: NonNullable<TranslationSettingsPatch['own_keys']> = {};
  for (const kind of draft.removeKeys) ownKeys[kind] = null;
  for (const kind of OWN_KEY_KINDS) if (draft.ownKeys[kind].trim() !== '') ownKeys[kind] = draft.ownKeys[kind].trim();
  if (Object.keys(ownKeys).length > 0) patch.own_keys = ownKeys;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

function defaultLabel(choice: { provider: string; model: string | null }): string {
  return `Operator default (${choice.provider}${choice.model ? ` ${choice.model}` : ''})`;
}

function TranslationSettingsForm() {
  const { client, can } = useProject();
  const { announce } = useAccount();
  const loaded = useLoad(async () => {
    const [settings, languages] = await Promise.all([client.translationSettings(), client.languages()]);
    return { settings, languages };
  }, [client]);
  // Undefined until the person changes something: until then the form shows what the service holds.
  const [draft, setDraft] = useState<Draft>();
  const request = useRequest();
  const [saved, setSaved] = useState<string>();
  const canManage = can('manage');

  if (!loaded.data) return loaded.error ? <ErrorNotice error={loaded.error} title="Translation settings unavailable" /> : <Loading what="translation settings" />;
  const { settings, languages } = loaded.data;
  const form = draft ?? draftOf(settings);
  const patch = draft ? patchOf(draft, settings) : undefined;
  const targets: Language[] = languages.filter((l) => l.role === 'target');
  // Locales with a stored formality that are no longer targets are kept as they are and listed too.
  const formalityLocales = [...targets.map((l) => l.tag), ...Object.keys(settings.style_guide.formality).filter((tag) => !targets.some((l) => l.tag === tag))];

  const change = (next: Partial<Draft>) => {
    setSaved(undefined);
    setDraft({ ...form, ...next });
  };

  const save = (event: Event) => {
    event.preventDefault();
    if (!patch) return;
    return request.submit(async () => {
      setSaved(undefined);
      const updated = await client.updateTranslationSettings(patch);
      loaded.set({ settings: updated, languages });
      setDraft(undefined);
      const text = 'Translation settings saved. They apply from the next chunk translated.';
      setSaved(text);
      announce(text);
    });
  };

  return (
    <form class="card form" onSubmit={(e) => void save(e)} aria-labelledby="translation-settings-title">
      <h2 id="translation-settings-title">Translation settings</h2>
      {PASSES.map(({ pass, label, hint }) => (
        <fieldset key={pass} disabled={!canManage}>
          <legend>{label}</legend>
          <p class="hint">{hint}</p>
          <Field id={`translation-${pass}-provider`} label={`${label} provider`}>
            <select id={`translation-${pass}-provider`} value={form[pass].provider} onChange={(e) => change({ [pass]: { ...form[pass], provider: e.currentTarget.value } })}>
              <option value="">{defaultLabel(settings.defaults[pass])}</option>
              {settings.available.map((kind) => (
                <option key={kind} value={kind}>
                  {kind}
                </option>
              ))}
            </select>
          </Field>
          <InputField
            id={`translation-${pass}-model`}
            label={`${label} model`}
            hint={`Empty: the operator's default${settings.defaults[pass].model ? ` (${settings.defaults[pass].model})` : ''}. Only openai and anthropic take a model name.`}
            type="text"
            class="mono"
            spellcheck={false}
            value={form[pass].model}
            onValue={(model) => change({ [pass]: { ...form[pass], model } })}
          />
        </fieldset>
      ))}
      <fieldset disabled={!canManage}>
        <legend>Style guide</legend>
        <p class="hint">Sent with every request to a provider that reads instructions; DeepL gets the formality alone.</p>
        <Field id="translation-product" label="Product" hint="What the product is and does, in a sentence or two.">
          <textarea id="translation-product" rows={3} aria-describedby="translation-product-hint" value={form.product} onInput={(e) => change({ product: e.currentTarget.value })} />
        </Field>
        <Field id="translation-audience" label="Audience" hint="Who reads the translations.">
          <textarea id="translation-audience" rows={2} aria-describedby="translation-audience-hint" value={form.audience} onInput={(e) => change({ audience: e.currentTarget.value })} />
        </Field>
        <InputField id="translation-tone" label="Tone" hint="The voice, e.g. friendly and brief." type="text" value={form.tone} onValue={(tone) => change({ tone })} />
        {formalityLocales.length === 0 ? <p class="hint">No target languages yet: the formality is set per target language.</p> : null}
        {formalityLocales.map((tag) => (
          <Field key={tag} id={`translation-formality-${tag}`} label={`Formality for ${localeLabel(tag)}`}>
            <select
              id={`translation-formality-${tag}`}
              value={form.formality[tag] ?? ''}
              onChange={(e) => change({ formality: { ...form.formality, [tag]: e.currentTarget.value as Formality } })}
            >
              <option value="">Default</option>
              <option value="formal">Formal</option>
              <option value="informal">Informal</option>
            </select>
          </Field>
        ))}
        <InputField
          id="translation-keep"
          label="Keep untranslated"
          hint="Words and names to keep as they are, separated by commas (e.g. Acme, Parlance)."
          type="text"
          value={form.keep}
          onValue={(keep) => change({ keep })}
        />
      </fieldset>
      <fieldset disabled={!canManage}>
        <legend>Your own API keys</legend>
        <p class="hint">
          A key here is sent instead of the operator's for that provider's requests (and makes the provider available to this project). It is stored encrypted and
          shown only by its last four characters.
        </p>
        {settings.own_keys_problem ? <Notice kind="warning">{settings.own_keys_problem}</Notice> : null}
        {OWN_KEY_KINDS.map((kind) => {
          const stored = settings.own_keys[kind];
          return (
            <div key={kind}>
              <InputField
                id={`translation-key-${kind}`}
                label={`${kind} API key`}
                hint={stored ? `Stored: ${stored}. Type a new key to replace it.` : "None: the operator's key is used."}
                type="password"
                autocomplete="off"
                class="mono"
                spellcheck={false}
                value={form.ownKeys[kind]}
                onValue={(value) => change({ ownKeys: { ...form.ownKeys, [kind]: value } })}
              />
              {stored ? (
                <label class="check">
                  <input
                    type="checkbox"
                    checked={form.removeKeys.includes(kind)}
                    onChange={(e) => change({ removeKeys: e.currentTarget.checked ? [...form.removeKeys, kind] : form.removeKeys.filter((k) => k !== kind) })}
                  />{' '}
                  Remove the stored {kind} key
                </label>
              ) : null}
            </div>
          );
        })}
      </fieldset>
      <ErrorNotice error={request.error} title="Settings not saved" />
      <SuccessNotice text={saved} />
      {canManage ? (
        <>
          {draft && !patch ? <p class="hint">Nothing changed yet.</p> : null}
          <FormActions busy={request.busy} label="Save settings" onCancel={draft ? () => setDraft(undefined) : undefined} />
        </>
      ) : (
        <p class="hint">Changing these needs the manage ability.</p>
      )}
    </form>
  );
}
