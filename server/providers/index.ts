/** Builds the configured translation provider. */
import { createOpenAIProvider, type OpenAIProviderOptions } from './openai.js';
import { createPseudoProvider } from './pseudo.js';
import type { TranslationProvider } from './provider.js';

export interface ProviderConfig {
  provider: 'pseudo' | 'openai';
  openai?: OpenAIProviderOptions;
}

export function createProvider(config: ProviderConfig): TranslationProvider {
  switch (config.provider) {
    case 'pseudo':
      return createPseudoProvider();
    case 'openai':
      if (!config.openai) throw new Error("provider 'openai' needs openai options (baseUrl, model)");
      return createOpenAIProvider(config.openai);
    default: {
      const unknown: never = config.provider;
      throw new Error(`unknown translation provider: ${String(unknown)}`);
    }
  }
}
