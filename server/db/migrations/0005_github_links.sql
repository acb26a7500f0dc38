-- GitHub App links: one repository and base branch of an App installation, tied to a project through a token and a webhook.

create table github_links (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  installation_id bigint not null,
  -- `owner/name` as the user typed it; GitHub matches names without regard to case, and so does the unique index below.
  repository text not null,
  base_branch text not null,
  config_path text not null default 'parlance.yml',
  -- The project token minted for the App, kept encrypted (AES-256-GCM, PARLANCE_SECRET_KEY): the App needs the token
  -- itself, which the tokens table holds only as a hash.
  token_id text not null references tokens (id) on delete cascade,
  token_ciphertext text not null,
  -- The subscription that sends the App this project's events, and its signing secret, also encrypted.
  webhook_id text references webhooks (id) on delete set null,
  webhook_secret_ciphertext text not null,
  enabled boolean not null default true,
  disabled_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index github_links_target on github_links (installation_id, lower(repository), base_branch);
create index github_links_project on github_links (project_id, id);
