-- Service core: organisations and their word allowance, projects, languages, tokens,
-- source files and keys, translations, batches and their rows, idempotency records.

create table organisations (
  id text primary key,
  name text not null,
  plan text not null check (plan in ('free', 'starter')),
  words_remaining integer not null,
  period_start timestamptz not null,
  period_end timestamptz not null,
  created_at timestamptz not null default now()
);

create table projects (
  id text primary key,
  organisation_id text not null references organisations (id) on delete cascade,
  name text not null,
  source_locale text not null,
  created_at timestamptz not null default now()
);
create index projects_organisation on projects (organisation_id);

create table project_languages (
  project_id text not null references projects (id) on delete cascade,
  tag text not null,
  created_at timestamptz not null default now(),
  primary key (project_id, tag)
);

create table tokens (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  kind text not null check (kind in ('api', 'session')),
  name text not null,
  display_prefix text not null,
  secret_hash text not null unique,
  abilities text[] not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index tokens_project on tokens (project_id);

create table source_files (
  project_id text not null references projects (id) on delete cascade,
  path text not null,
  format text not null,
  content bytea not null,
  content_sha256 text not null,
  updated_at timestamptz not null default now(),
  primary key (project_id, path)
);

create table keys (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  path text not null,
  key text not null,
  source text not null,
  notes text,
  context text,
  max_length integer,
  pass text not null check (pass in ('fast', 'careful')),
  source_hash text not null,
  position integer not null,
  line integer,
  state text not null check (state in ('active', 'removed')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  removed_at timestamptz,
  unique (project_id, path, key)
);

create table translations (
  key_id text not null references keys (id) on delete cascade,
  locale text not null,
  text text not null,
  source_hash text not null,
  origin text not null,
  batch_id text,
  updated_at timestamptz not null default now(),
  primary key (key_id, locale)
);

create table batches (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  status text not null check (status in ('queued', 'running', 'completed', 'failed', 'cancelled')),
  path text,
  format text,
  keys_added integer not null default 0,
  keys_changed integer not null default 0,
  keys_unchanged integer not null default 0,
  keys_removed integer not null default 0,
  words_reserved integer not null default 0,
  words_refunded integer not null default 0,
  error text,
  lease_owner text,
  lease_expires_at timestamptz,
  enqueued_at timestamptz,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index batches_project on batches (project_id, id);
create index batches_open on batches (status) where status in ('queued', 'running');

create table batch_rows (
  id bigserial primary key,
  batch_id text not null references batches (id) on delete cascade,
  key_id text not null references keys (id) on delete cascade,
  locale text not null,
  source_hash text not null,
  pass text not null,
  words integer not null,
  status text not null default 'queued' check (status in ('queued', 'done', 'failed', 'cancelled')),
  outcome text,
  reason text,
  provider text,
  attempts integer not null default 0,
  updated_at timestamptz not null default now()
);
create index batch_rows_batch on batch_rows (batch_id, status, id);
create index batch_rows_open on batch_rows (key_id, locale) where status = 'queued';

create table idempotency_records (
  project_id text not null references projects (id) on delete cascade,
  key text not null,
  route text not null,
  request_sha256 text not null,
  status integer,
  body text,
  created_at timestamptz not null default now(),
  primary key (project_id, key)
);
