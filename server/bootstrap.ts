/** First start on an empty database: a demo organisation, project and deploy token, and what to do next. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Runtime } from './runtime.js';

export async function bootstrapDemo(runtime: Runtime): Promise<{ token: string | undefined; created: boolean; hasUsers: boolean }> {
  const tokenFile = join(runtime.config.dataDir, 'demo-token');
  const existing = await runtime.db.selectFrom('organisations').select('id').limit(1).execute();
  const hasUsers = (await runtime.db.selectFrom('users').select('id').limit(1).execute()).length > 0;
  if (existing.length > 0) {
    const token = existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined;
    return { token, created: false, hasUsers };
  }
  const org = await runtime.organisations.createOrganisation({ name: 'Demo', plan: 'starter' });
  const project = await runtime.organisations.createProject({ organisationId: org.id, name: 'Demo', sourceLocale: 'en', targetLocales: ['de', 'fr', 'ja'] });
  const { secret } = await runtime.tokens.mint({ projectId: project.id, name: 'demo deploy token' });
  if (runtime.config.database.kind === 'pglite') writeFileSync(tokenFile, secret + '\n', { mode: 0o600 });
  return { token: secret, created: true, hasUsers };
}

export function nextSteps(url: string, token: string | undefined, hasUsers = true): string {
  const t = token ?? '<your token>';
  return `
Parlance is running at ${url}  (API reference: ${url}/v1/reference)

Console: open ${url}/ in a browser. ${hasUsers ? 'Sign in with your account.' : 'Sign up there: the first account becomes owner of the Demo organisation.'}
${token ? `Demo project: source en, targets de, fr, ja. Deploy token (push, pull, read):\n\n  export PARLANCE_TOKEN=${token}\n` : 'Mint a token with: parlance admin token create --project <id>\n'}
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
