/** Builds the translation providers of the fast and careful passes from their settings. */
import { hash } from 'node:crypto';
import { OWN_KEY_KINDS, type BatchingSettings, type Config, type OwnKeyKind, type OwnKeys, type ProviderKind, type ProviderSettings, type ProvidersConfig, type RemoteSettings } from '../config.js';
import type { AdaptiveLimitOptions } from './adaptive-limit.js';
import type { RequestLimit } from './http.js';
import type { LlmOptions } from './llm.js';
import type { Logger } from '../logger.js';
import { createAnthropicProvider } from './anthropic.js';
import { createDeepLProvider } from './deepl.js';
import type { RemoteOptions } from './http.js';
import { createLibreTranslateProvider } from './libretranslate.js';
import { createOpenAIProvider } from './openai.js';
import type { TranslationProvider } from './provider.js';
import { createPseudoProvider } from './pseudo.js';

/** A remote provider's HTTP options from its settings; `log` hears of every retry. */
function remoteOptions(settings: RemoteSettings, log: Logger | undefined): RemoteOptions {
  return { timeoutMs: settings.timeoutMs, maxRetries: settings.maxRetries, ...(log ? { log } : {}) };
}

/** An LLM provider's request sizing from its settings. */
function batchingOptions(settings: BatchingSettings): Pick<LlmOptions, 'batchSize' | 'batchTokens' | 'concurrency' | 'maxConcurrency' | 'requestsPerMinute' | 'tokensPerMinute'> {
  return {
    batchSize: settings.batchRows,
    batchTokens: settings.batchTokens,
    concurrency: settings.concurrency,
    maxConcurrency: settings.maxConcurrency,
    ...(settings.requestsPerMinute !== undefined ? { requestsPerMinute: settings.requestsPerMinute } : {}),
    ...(settings.tokensPerMinute !== undefined ? { tokensPerMinute: settings.tokensPerMinute } : {}),
  };
}

/** Makes a model's limit of requests in flight for a provider kind: shared by every worker on Redis (shared-limit.ts). */
export type LimitFactory = (provider: string, model: string, options: AdaptiveLimitOptions) => RequestLimit;

/** One provider from its settings; `log` receives a warning per retried request; `limits`, when given, makes each model's limit. */
export function createProvider(settings: ProviderSettings, log?: Logger, limits?: LimitFactory): TranslationProvider {
  switch (settings.kind) {
    case 'pseudo':
      return createPseudoProvider();
    case 'openai':
      return createOpenAIProvider({
        ...remoteOptions(settings, log),
        baseUrl: settings.baseUrl,
        model: settings.model,
        ...batchingOptions(settings),
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...(settings.carefulModel ? { carefulModel: settings.carefulModel } : {}),
        ...(limits ? { limitFactory: (model: string, options: AdaptiveLimitOptions) => limits('openai', model, options) } : {}),
      });
    case 'anthropic':
      return createAnthropicProvider({
        ...remoteOptions(settings, log),
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        model: settings.model,
        ...batchingOptions(settings),
        ...(settings.carefulModel ? { carefulModel: settings.carefulModel } : {}),
        ...(limits ? { limitFactory: (model: string, options: AdaptiveLimitOptions) => limits('anthropic', model, options) } : {}),
      });
    case 'deepl':
      return createDeepLProvider({
        ...remoteOptions(settings, log),
        apiKey: settings.apiKey,
        ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
      });
    case 'libretranslate':
      return createLibreTranslateProvider({
        ...remoteOptions(settings, log),
        baseUrl: settings.baseUrl,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      });
    default: {
      const unknown: never = settings;
      throw new Error(`unknown translation provider: ${JSON.stringify(unknown)}`);
    }
  }
}

const sameSettings = (a: ProviderSettings, b: ProviderSettings): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * The providers of both passes. One provider serves both when the settings are the same (its careful model, if any,
 * is picked per request). An MT engine on the careful pass is allowed only as the fallback of an unset
 * CAREFUL_PROVIDER, and it is worth a warning: careful keys then get a plain translation without context or self-check.
 */
export function createProviders(settings: ProvidersConfig, log?: Logger, limits?: LimitFactory): { fast: TranslationProvider; careful: TranslationProvider } {
  const fast = createProvider(settings.fast, log, limits);
  const careful = sameSettings(settings.fast, settings.careful) ? fast : createProvider(settings.careful, log, limits);
  if (!careful.instructable) {
    log?.warn(
      `careful pass: ${careful.name} takes no instructions, so keys marked careful get its plain translation (no neighbours, glossary, memory or self-check); set CAREFUL_PROVIDER to openai, anthropic or pseudo for a real careful pass`,
    );
  }
  return { fast, careful };
}

/**
 * The providers projects choose in their translation settings, made on first use and kept: one per provider kind and
 * model, from the operator's settings for that kind (its credentials, timeouts and concurrency) with the project's
 * model in place of the operator's. A choice the service no longer offers (the operator removed the credentials since)
 * falls back to the operator's provider for the pass, with a warning.
 */
export function createProviderRegistry(
  config: Pick<Config, 'providers' | 'providerCatalog' | 'ownKeyTemplates'>,
  defaults: { fast: TranslationProvider; careful: TranslationProvider },
  log?: Logger,
  limits?: LimitFactory,
) {
  // A project's own key makes a provider of its own, with its own adaptive limit (its account's rate limits), found
  // again by a digest of the key rather than the key.
  const keyOf = (settings: ProviderSettings, ownKey?: string) =>
    `${settings.kind}|${'model' in settings ? settings.model : ''}|${'carefulModel' in settings ? (settings.carefulModel ?? '') : ''}|${ownKey ? hash('sha256', ownKey, 'hex').slice(0, 16) : ''}`;
  // The operator's own providers serve a choice that comes to the same settings: one adaptive limit per model.
  const made = new Map<string, TranslationProvider>([
    [keyOf(config.providers.careful), defaults.careful],
    [keyOf(config.providers.fast), defaults.fast],
  ]);
  return (pass: 'fast' | 'careful', choice: { provider: ProviderKind | null; model: string | null }, ownKeys: OwnKeys = {}): TranslationProvider => {
    const kind = choice.provider ?? config.providers[pass].kind;
    const ownKey = (OWN_KEY_KINDS as readonly string[]).includes(kind) ? ownKeys[kind as OwnKeyKind] : undefined;
    const catalogued = config.providerCatalog[kind];
    // With the project's own key: the operator's settings of that kind (or its template when the operator has none) and the project's key.
    const base: ProviderSettings | undefined = ownKey ? ({ ...(catalogued ?? config.ownKeyTemplates[kind as OwnKeyKind]), apiKey: ownKey } as ProviderSettings) : catalogued;
    if (!base) {
      log?.warn(`a project chose the ${pass} provider '${kind}', which this service no longer offers; using the operator's`);
      return defaults[pass];
    }
    if (!ownKey && choice.model === null && choice.provider === null) return defaults[pass];
    const settings: ProviderSettings = choice.model !== null && (base.kind === 'openai' || base.kind === 'anthropic') ? { ...base, model: choice.model, carefulModel: choice.model } : base;
    const key = keyOf(settings, ownKey);
    let provider = made.get(key);
    if (!provider) {
      provider = createProvider(settings, log, limits);
      made.set(key, provider);
    }
    return provider;
  };
}

/** The operator's provider and model for a pass, as GET /v1/project/translation shows it under `defaults`. */
export function defaultChoice(settings: ProviderSettings, pass: 'fast' | 'careful'): { provider: ProviderKind; model: string | null } {
  if (settings.kind !== 'openai' && settings.kind !== 'anthropic') return { provider: settings.kind, model: null };
  return { provider: settings.kind, model: pass === 'careful' ? (settings.carefulModel ?? settings.model) : settings.model };
}
