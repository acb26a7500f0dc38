// Lint configuration: typescript-eslint's recommended rules over the TypeScript sources.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers import only downward: src/core ← src/client and src/project-config ← src/sync ← the hosts (src/cli,
 * src/action, src/mcp); src/ never imports server/, and nothing but the CLI imports src/cli/. In server/, what sits
 * below the HTTP edge (services, integrations, imports, delivery, …) never imports server/routes/ or server/http/:
 * a rule a route needs lives beside its domain and the route imports it. Import circles are madge's to find
 * (npm run check:structure).
 */
const below = (folders) => `^\\.{1,2}/(\\.\\./)*(${folders.join('|')})/`;
const refuse = (folders, message) => ({ regex: below(folders), caseSensitive: true, message });
const layer = (files, ...refusals) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns: refusals }] } });

const NOT_SERVER = refuse(['server'], 'src/ is shared by the CLI, the Action, the MCP server and the console: it never imports server/.');
const NOT_HOSTS = refuse(['cli', 'action', 'mcp'], 'A host (src/cli, src/action, src/mcp) is imported only by its own entry; what two hosts share lives in a room none of them owns (src/sync, src/project-config).');
const NOT_CLI_OR_ACTION = refuse(['src/cli', 'src/action'], 'The service does not import the CLI or the Action; what they share with it lives in src/project-config or src/core.');
const NOT_SYNC = refuse(['sync'], 'src/sync runs push and pull for the hosts; the layers below it do not import it.');

const layers = [
  layer(['src/core/**'], NOT_SERVER, NOT_HOSTS, NOT_SYNC, refuse(['client', 'project-config'], 'src/core knows nothing of its hosts: it imports only src/core.')),
  layer(['src/client/**'], NOT_SERVER, NOT_HOSTS, NOT_SYNC, refuse(['project-config'], 'src/client is the /v1 client (the console runs it in a browser): it imports only src/core.')),
  layer(['src/project-config/**'], NOT_SERVER, NOT_HOSTS, NOT_SYNC, refuse(['client'], 'src/project-config reads parlance.yml: it imports only src/core.')),
  layer(['src/sync/**'], NOT_SERVER, NOT_HOSTS),
  layer(['src/cli/**'], NOT_SERVER, refuse(['action'], 'The CLI does not import the Action; what both run lives in src/sync.')),
  layer(['src/action/**'], NOT_SERVER, refuse(['cli', 'mcp'], 'The Action imports no other host; what it shares with the CLI lives in src/sync and src/project-config.')),
  layer(['src/mcp/**'], NOT_SERVER, refuse(['cli', 'action', 'sync'], 'The MCP server imports no other host: it acts through src/client.')),
  layer(['server/**/*.{ts,tsx}'], NOT_CLI_OR_ACTION),
  layer(
    ['server/{services,integrations,imports,delivery,webhooks,jobs,db,net,providers,rate-limit,github-app}/**/*.ts', 'server/{config,errors,ids,logger,asset-path}.ts'],
    NOT_CLI_OR_ACTION,
    refuse(['routes', 'http'], 'Only the HTTP edge imports server/routes/ and server/http/: put the rule or type beside its domain (a service, integrations/, src/project-config) and import it from there.'),
  ),
];

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'packages/cli/dist/**', 'node_modules/**', '.parlance/**', 'coverage/**', 'server/web/public/**', 'test-artifacts/**'] },
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
  ...layers,
);
