// Lint configuration: typescript-eslint's recommended rules over the TypeScript sources.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', '.parlance/**', 'coverage/**', 'server/web/public/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', fetch: 'readonly', AbortController: 'readonly', Response: 'readonly', Request: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', FormData: 'readonly', Blob: 'readonly', File: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The web console runs in a browser.
    files: ['server/web/console/**/*.{ts,tsx}'],
    languageOptions: {
      globals: { window: 'readonly', document: 'readonly', location: 'readonly', history: 'readonly', navigator: 'readonly', crypto: 'readonly', requestAnimationFrame: 'readonly', HashChangeEvent: 'readonly', HTMLElement: 'readonly', HTMLTextAreaElement: 'readonly', Headers: 'readonly', RequestInit: 'readonly', RequestInfo: 'readonly', KeyboardEvent: 'readonly', MouseEvent: 'readonly', Event: 'readonly', URLSearchParams: 'readonly' },
    },
  },
);
