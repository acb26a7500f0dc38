/** Every connector the service offers, in catalog order: the GitHub App first (it keeps its own routes), then the rest. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AnyConnector, ConnectorCategory, ConnectorDirection } from './connector.js';
// The connectors
import { gitlab } from './connectors/gitlab.js';
import { bitbucket } from './connectors/bitbucket.js';
import { bitbucketServer } from './connectors/bitbucket-server.js';
import { azureDevops } from './connectors/azure-devops.js';
import { gitea } from './connectors/gitea.js';
import { sourceCode } from './connectors/source-code.js';
import { contentful } from './connectors/contentful.js';
import { strapi } from './connectors/strapi.js';
import { sanity } from './connectors/sanity.js';
import { storyblok } from './connectors/storyblok.js';
import { wordpress } from './connectors/wordpress.js';
import { directus } from './connectors/directus.js';
import { webflow } from './connectors/webflow.js';
import { drupal } from './connectors/drupal.js';
import { ghost } from './connectors/ghost.js';
import { hygraph } from './connectors/hygraph.js';
import { prismic } from './connectors/prismic.js';
import { datocms } from './connectors/datocms.js';
import { payload } from './connectors/payload.js';
import { contentstack } from './connectors/contentstack.js';
import { builder } from './connectors/builder.js';
import { kontent } from './connectors/kontent.js';
import { hubspot } from './connectors/hubspot.js';
import { shopify } from './connectors/shopify.js';
import { zendeskGuide } from './connectors/zendesk-guide.js';
import { intercom } from './connectors/intercom.js';
import { freshdesk } from './connectors/freshdesk.js';
import { googleSheets } from './connectors/google-sheets.js';
import { airtable } from './connectors/airtable.js';
import { appStoreConnect } from './connectors/app-store-connect.js';
import { googlePlay } from './connectors/google-play.js';
import { notion } from './connectors/notion.js';
import { confluence } from './connectors/confluence.js';
import { googleDocs } from './connectors/google-docs.js';
import { figma } from './connectors/figma.js';
import { sketch } from './connectors/sketch.js';
import { penpot } from './connectors/penpot.js';
import { zeplin } from './connectors/zeplin.js';
import { miro } from './connectors/miro.js';
import { http } from './connectors/http.js';

/** The connectors that run on the framework (sync engine, /v1/integrations/{connector}). */
export const CONNECTORS: readonly AnyConnector[] = [
  // Code hosts, content systems, design, automation: the catalog's order.
  gitlab,
  bitbucket,
  bitbucketServer,
  azureDevops,
  gitea,
  sourceCode,
  contentful,
  strapi,
  sanity,
  storyblok,
  wordpress,
  directus,
  webflow,
  drupal,
  ghost,
  hygraph,
  prismic,
  datocms,
  payload,
  contentstack,
  builder,
  kontent,
  hubspot,
  shopify,
  zendeskGuide,
  intercom,
  freshdesk,
  googleSheets,
  airtable,
  appStoreConnect,
  googlePlay,
  notion,
  confluence,
  googleDocs,
  figma,
  sketch,
  penpot,
  zeplin,
  miro,
  http,
];

/** A catalog entry: what GET /v1/integrations/catalog lists. */
export interface CatalogEntry {
  id: string;
  name: string;
  category: ConnectorCategory;
  direction: ConnectorDirection;
  summary: string;
  /** How the remote system's change notifications are verified; null when it sends none (syncs run on demand and on the schedule). */
  webhooks: string | null;
  /** Where the connection is managed. */
  endpoint: string;
  /** The file the connector reads from PUT …/{id}/file (a design tool's export); null when it reads none. */
  upload: { description: string; extensions: string[] } | null;
  /** JSON Schemas of what POST takes as `settings` and as `secrets` (with each field's description); null for the GitHub App. */
  settings_schema: Record<string, unknown> | null;
  secrets_schema: Record<string, unknown> | null;
}

/** The GitHub App: the first code-host connector, which keeps its own routes and runs as a Probot app beside the service. */
const GITHUB: CatalogEntry = {
  id: 'github',
  name: 'GitHub',
  category: 'code_host',
  direction: 'two_way',
  summary: 'The Parlance GitHub App: pushes to the base branch are translated, one pull request per base branch carries the translations, refused rows are check-run annotations on their source lines.',
  webhooks: "GitHub's X-Hub-Signature-256 (HMAC-SHA256 of the body with the App's webhook secret)",
  endpoint: '/v1/integrations/github',
  upload: null,
  settings_schema: null,
  secrets_schema: null,
};

let schemas: Map<string, Record<string, unknown>> | undefined;

/** The connectors' settings and secrets as JSON Schemas, made once by the same generator as /v1/openapi.json. */
function jsonSchemas(): Map<string, Record<string, unknown>> {
  if (schemas) return schemas;
  const app = new OpenAPIHono();
  for (const c of CONNECTORS) {
    app.openAPIRegistry.register(`${c.id}.settings`, c.settings);
    app.openAPIRegistry.register(`${c.id}.secrets`, c.secrets);
  }
  const document = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'connectors', version: '1' } });
  schemas = new Map(Object.entries(document.components?.schemas ?? {}) as [string, Record<string, unknown>][]);
  return schemas;
}

export function catalog(): CatalogEntry[] {
  return [
    GITHUB,
    ...CONNECTORS.map((c) => ({
      id: c.id,
      name: c.name,
      category: c.category,
      direction: c.direction,
      summary: c.summary,
      webhooks: c.webhooks ?? null,
      endpoint: `/v1/integrations/${c.id}`,
      upload: c.upload ? { description: c.upload.description, extensions: [...c.upload.extensions] } : null,
      settings_schema: jsonSchemas().get(`${c.id}.settings`) ?? null,
      secrets_schema: jsonSchemas().get(`${c.id}.secrets`) ?? null,
    })),
  ];
}

export function findConnector(id: string): AnyConnector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
