/** Builds the translation providers of the fast and careful passes from their settings. */
import type { BatchingSettings, ProviderSettings, ProvidersConfig, RemoteSettings } from '../config.js';
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

/** One provider from its settings; `log` receives a warning per retried request. */
export function createProvider(settings: ProviderSettings, log?: Logger): TranslationProvider {
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
      });
    case 'anthropic':
      return createAnthropicProvider({
        ...remoteOptions(settings, log),
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        model: settings.model,
        ...batchingOptions(settings),
        ...(settings.carefulModel ? { carefulModel: settings.carefulModel } : {}),
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
export function createProviders(settings: ProvidersConfig, log?: Logger): { fast: TranslationProvider; careful: TranslationProvider } {
  const fast = createProvider(settings.fast, log);
  const careful = sameSettings(settings.fast, settings.careful) ? fast : createProvider(settings.careful, log);
  if (!careful.instructable) {
    log?.warn(
      `careful pass: ${careful.name} takes no instructions, so keys marked careful get its plain translation (no neighbours, glossary, memory or self-check); set CAREFUL_PROVIDER to openai, anthropic or pseudo for a real careful pass`,
    );
  }
  return { fast, careful };
}
