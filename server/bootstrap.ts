/**
 * First start on an empty database: a demo organisation and project with two tokens, and what to do next. The deploy
 * token (push, pull, read) is the one to give CI; the manage token (all five abilities) is the person's at the terminal,
 * so that `parlance languages add`, `tokens` and `review` work on the first try without stopping the service.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Runtime } from './runtime.js';
import { ABILITIES } from './services/tokens/token-fns.js';

export interface DemoTokens {
  /** push, pull, read: for CI and the curl commands. */
  deploy: string | undefined;
  /** All five abilities, `manage` among them: languages, tokens, webhooks, members, review. */
  manage: string | undefined;
}

/**
 * With the embedded database the tokens are kept in the data directory (mode 0600) and printed at every start, since
 * that directory is the operator's own; on PostgreSQL they are printed on the first start only.
 */
const TOKEN_FILES: Record<keyof DemoTokens, string> = { deploy: 'demo-token', manage: 'demo-manage-token' };

export async function bootstrapDemo(runtime: Runtime): Promise<{ tokens: DemoTokens; created: boolean; hasUsers: boolean }> {
  const file = (which: keyof DemoTokens) => join(runtime.config.dataDir, TOKEN_FILES[which]);
  const existing = await runtime.db.selectFrom('organisations').select('id').limit(1).execute();
  const hasUsers = (await runtime.db.selectFrom('users').select('id').limit(1).execute()).length > 0;
  if (existing.length > 0) {
    const read = (which: keyof DemoTokens) => (existsSync(file(which)) ? readFileSync(file(which), 'utf8').trim() : undefined);
    return { tokens: { deploy: read('deploy'), manage: read('manage') }, created: false, hasUsers };
  }
  const org = await runtime.organisations.createOrganisation({ name: 'Demo', plan: 'starter' });
  const project = await runtime.organisations.createProject({ organisationId: org.id, name: 'Demo', sourceLocale: 'en', targetLocales: ['de', 'fr', 'ja'] });
  const deploy = await runtime.tokens.mint({ projectId: project.id, name: 'demo deploy token' });
  const manage = await runtime.tokens.mint({ projectId: project.id, name: 'demo manage token', abilities: [...ABILITIES] });
  const tokens: DemoTokens = { deploy: deploy.secret, manage: manage.secret };
  if (runtime.config.database.kind === 'pglite') {
    for (const which of ['deploy', 'manage'] as const) writeFileSync(file(which), tokens[which] + '\n', { mode: 0o600 });
  }
  return { tokens, created: true, hasUsers };
}

export function nextSteps(url: string, tokens: DemoTokens, hasUsers = true): string {
  const token = tokens.deploy;
  const t = token ?? '<your token>';
  return `
Parlance is running at ${url}  (API reference: ${url}/v1/reference)

Console: open ${url}/ in a browser. ${hasUsers ? 'Sign in with your account.' : 'Sign up there: the first account becomes owner of the Demo organisation.'}
${tokenLines(url, tokens)}
Push a source file:

  printf '{\\n  "greeting": "Hello, {name}!",\\n  "farewell": "Goodbye"\\n}\\n' > en.json
  curl -s -H "Authorization: Bearer ${token ? '$PARLANCE_TOKEN' : t}" -F file=@en.json -F format=json -F path=locales/en.json ${url}/v1/push

Watch the batch (use the id from the push):

  curl -s -H "Authorization: Bearer ${token ? '$PARLANCE_TOKEN' : t}" ${url}/v1/batches/<batch id>

Pull the German file:

  curl -s -H "Authorization: Bearer ${token ? '$PARLANCE_TOKEN' : t}" "${url}/v1/pull?locale=de"

Or, in your app's repository, with the CLI (existing translations are kept as human translations):

  npm install -D parlance-l10n
  PARLANCE_URL=${url} npx parlance init
  PARLANCE_URL=${url} npx parlance sync
`;
}

/** Which token is which: the deploy token for CI and the commands below, the manage token for changing the project. */
function tokenLines(url: string, { deploy, manage }: DemoTokens): string {
  if (!deploy) return 'Mint a token with: parlance admin token create --project <id> (it works while the service runs)\n';
  const manageLines = manage
    ? `Manage token (push, pull, read, write, manage): yours at the terminal, to change the project
(languages, tokens, webhooks, review). Keep it out of CI:

  export PARLANCE_MANAGE_TOKEN=${manage}
  PARLANCE_URL=${url} npx parlance languages add es --token "$PARLANCE_MANAGE_TOKEN"
`
    : `For a token that can change the project (languages, tokens, review), run in another terminal:

  npx parlance admin project list
  npx parlance admin token create --project <id> --abilities push,pull,read,write,manage
`;
  return `Demo project: source en, targets de, fr, ja. ${manage ? 'Two tokens for it:' : 'Its token:'}

Deploy token (push, pull, read): for CI and the commands below; it cannot change the project.

  export PARLANCE_TOKEN=${deploy}

${manageLines}`;
}
