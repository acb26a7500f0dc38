/** The provider part of the environment: TRANSLATION_PROVIDER / CAREFUL_PROVIDER and their settings, to ProvidersConfig and providers. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type ProviderSettings } from '../../server/config.js';
import { createLogger } from '../../server/logger.js';
import { createProviders } from '../../server/providers/index.js';

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  return expect.unreachable('loadConfig accepted the environment');
}

const remote = { timeoutMs: 60_000, maxRetries: 3 };
const batching = { batchRows: 40, batchTokens: 3000, concurrency: 16, maxConcurrency: 64, requestsPerMinute: undefined, tokensPerMinute: undefined };

describe('providers configuration', () => {
  it('uses pseudo for both passes by default', () => {
    expect(loadConfig({}).providers).toEqual({ fast: { kind: 'pseudo' }, careful: { kind: 'pseudo' } });
  });

  it('uses TRANSLATION_PROVIDER for the careful pass when CAREFUL_PROVIDER is unset or empty', () => {
    const openai: ProviderSettings = {
      kind: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-1',
      model: 'gpt-4o-mini',
      carefulModel: 'gpt-4o',
      ...remote,
      ...batching,
    };
    const env = { TRANSLATION_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-1', OPENAI_CAREFUL_MODEL: 'gpt-4o' };
    expect(loadConfig(env).providers).toEqual({ fast: openai, careful: openai });
    expect(loadConfig({ ...env, CAREFUL_PROVIDER: '' }).providers).toEqual({ fast: openai, careful: openai });
  });

  it('reads the anthropic settings with their defaults, and the shared timeout and retries', () => {
    const config = loadConfig({
      TRANSLATION_PROVIDER: 'pseudo',
      CAREFUL_PROVIDER: 'anthropic',
      ANTHROPIC_API_KEY: 'sk-ant-1',
      PROVIDER_TIMEOUT_MS: '5000',
      PROVIDER_MAX_RETRIES: '0',
    });
    expect(config.providers).toEqual({
      fast: { kind: 'pseudo' },
      careful: {
        kind: 'anthropic',
        baseUrl: 'https://api.anthropic.com',
        apiKey: 'sk-ant-1',
        model: 'claude-sonnet-4-5',
        carefulModel: undefined,
        timeoutMs: 5000,
        maxRetries: 0,
        ...batching,
      },
    });
  });

  it('reads how LLM requests are sized and how many run at once, refusing nonsense', () => {
    const config = loadConfig({ TRANSLATION_PROVIDER: 'openai', PROVIDER_BATCH_ROWS: '25', PROVIDER_BATCH_TOKENS: '1500', PROVIDER_CONCURRENCY: '8' });
    expect(config.providers.fast).toMatchObject({ kind: 'openai', batchRows: 25, batchTokens: 1500, concurrency: 8 });
    expect(configError({ PROVIDER_CONCURRENCY: '0' })).toContain('PROVIDER_CONCURRENCY');
    const paced = loadConfig({ TRANSLATION_PROVIDER: 'openai', PROVIDER_CONCURRENCY: '32', PROVIDER_MAX_CONCURRENCY: '8', PROVIDER_REQUESTS_PER_MINUTE: '500', PROVIDER_TOKENS_PER_MINUTE: '200000' });
    // The starting point is capped by the ceiling.
    expect(paced.providers.fast).toMatchObject({ concurrency: 8, maxConcurrency: 8, requestsPerMinute: 500, tokensPerMinute: 200000 });
    expect(configError({ PROVIDER_REQUESTS_PER_MINUTE: '-5' })).toContain('PROVIDER_REQUESTS_PER_MINUTE');
    expect(configError({ PROVIDER_BATCH_TOKENS: 'many' })).toContain('PROVIDER_BATCH_TOKENS');
  });

  it('reads DeepL and LibreTranslate settings', () => {
    expect(loadConfig({ TRANSLATION_PROVIDER: 'deepl', DEEPL_API_KEY: 'k:fx' }).providers.fast).toEqual({
      kind: 'deepl',
      baseUrl: undefined,
      apiKey: 'k:fx',
      ...remote,
    });
    expect(loadConfig({ TRANSLATION_PROVIDER: 'deepl', DEEPL_API_KEY: 'k', DEEPL_BASE_URL: 'http://127.0.0.1:9000' }).providers.fast).toMatchObject({
      baseUrl: 'http://127.0.0.1:9000',
    });
    expect(
      loadConfig({ TRANSLATION_PROVIDER: 'libretranslate', LIBRETRANSLATE_URL: 'http://localhost:5000', CAREFUL_PROVIDER: 'openai' }).providers,
    ).toEqual({
      fast: { kind: 'libretranslate', baseUrl: 'http://localhost:5000', apiKey: undefined, ...remote },
      careful: { kind: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: undefined, model: 'gpt-4o-mini', carefulModel: undefined, ...remote, ...batching },
    });
  });

  it('falls back to an MT engine for the careful pass only when CAREFUL_PROVIDER is unset', () => {
    const config = loadConfig({ TRANSLATION_PROVIDER: 'libretranslate', LIBRETRANSLATE_URL: 'http://localhost:5000' });
    expect(config.providers.careful).toEqual(config.providers.fast);
  });

  it('rejects an explicit MT engine as CAREFUL_PROVIDER, naming the variable', () => {
    const message = configError({ CAREFUL_PROVIDER: 'deepl', DEEPL_API_KEY: 'k' });
    expect(message).toContain("CAREFUL_PROVIDER='deepl'");
    expect(message).toContain('cannot run the careful pass');
    expect(configError({ CAREFUL_PROVIDER: 'libretranslate', LIBRETRANSLATE_URL: 'http://lt' })).toContain("CAREFUL_PROVIDER='libretranslate'");
  });

  it('requires the key or URL of every provider in use, naming the variable that chose it', () => {
    expect(configError({ TRANSLATION_PROVIDER: 'anthropic' })).toContain("ANTHROPIC_API_KEY=(unset): required because TRANSLATION_PROVIDER='anthropic'");
    expect(configError({ CAREFUL_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: '' })).toContain("required because CAREFUL_PROVIDER='anthropic'");
    expect(configError({ TRANSLATION_PROVIDER: 'deepl' })).toContain("DEEPL_API_KEY=(unset): required because TRANSLATION_PROVIDER='deepl'");
    expect(configError({ TRANSLATION_PROVIDER: 'libretranslate' })).toContain('LIBRETRANSLATE_URL=(unset)');
    // Every problem at once, not one per start attempt.
    const both = configError({ TRANSLATION_PROVIDER: 'deepl', CAREFUL_PROVIDER: 'anthropic' });
    expect(both).toContain('DEEPL_API_KEY');
    expect(both).toContain('ANTHROPIC_API_KEY');
  });

  it('names bad values with the expected form', () => {
    expect(configError({ TRANSLATION_PROVIDER: 'google' })).toMatch(/TRANSLATION_PROVIDER='google': .*"pseudo"\|"openai"\|"anthropic"\|"deepl"\|"libretranslate"/);
    expect(configError({ LIBRETRANSLATE_URL: 'ftp://lt.example' })).toContain("LIBRETRANSLATE_URL='ftp://lt.example': expected an http(s) URL");
    expect(configError({ PROVIDER_MAX_RETRIES: '-1' })).toContain("PROVIDER_MAX_RETRIES='-1'");
    expect(configError({ PROVIDER_TIMEOUT_MS: '0' })).toContain("PROVIDER_TIMEOUT_MS='0'");
  });

  it('never puts an API key into a configuration error', () => {
    const message = configError({ TRANSLATION_PROVIDER: 'deepl', DEEPL_API_KEY: 'secret-deepl-key', CAREFUL_PROVIDER: 'deepl' });
    expect(message).not.toContain('secret-deepl-key');
  });
});

describe('createProviders', () => {
  const warnings = () => {
    const lines: string[] = [];
    return { lines, log: createLogger('warn', (line) => lines.push(line)) };
  };

  it('builds one provider for both passes when their settings are the same', () => {
    const { lines, log } = warnings();
    const providers = createProviders(loadConfig({ TRANSLATION_PROVIDER: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant-1' }).providers, log);
    expect(providers.fast).toBe(providers.careful);
    expect(providers.fast.name).toBe('anthropic:claude-sonnet-4-5');
    expect(lines).toEqual([]);
  });

  it('builds a provider per pass when they differ', () => {
    const { lines, log } = warnings();
    const providers = createProviders(
      loadConfig({ TRANSLATION_PROVIDER: 'deepl', DEEPL_API_KEY: 'k', CAREFUL_PROVIDER: 'openai', OPENAI_MODEL: 'gpt-x' }).providers,
      log,
    );
    expect([providers.fast.name, providers.careful.name]).toEqual(['deepl', 'openai:gpt-x']);
    expect([providers.fast.instructable, providers.careful.instructable]).toEqual([false, true]);
    expect(lines).toEqual([]);
  });

  it('warns that careful keys get the MT translation when the careful pass falls back to an MT engine, without the key', () => {
    const { lines, log } = warnings();
    const providers = createProviders(loadConfig({ TRANSLATION_PROVIDER: 'deepl', DEEPL_API_KEY: 'secret-deepl-key' }).providers, log);
    expect(providers.careful).toBe(providers.fast);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('careful pass: deepl takes no instructions');
    expect(lines[0]).toContain('CAREFUL_PROVIDER');
    expect(lines[0]).not.toContain('secret-deepl-key');
  });
});
