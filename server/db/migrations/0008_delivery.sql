-- Delivery: releases (immutable, numbered snapshots of a project's translations) served on the public CDN route, and
-- storage targets (S3-compatible buckets, Azure Blob containers) that receive every release.

-- The CDN route finds a project by its bundle id, a random, rotatable secret minted at the first release.
alter table projects add column bundle_id text;
alter table projects add column release_on_batch boolean not null default false;
alter table projects add column bundle_shape text not null default 'flat' check (bundle_shape in ('flat', 'nested'));
alter table projects add column bundle_files boolean not null default false;
create unique index projects_bundle_id on projects (bundle_id);

-- Object bodies by content: a release whose German file did not change shares the previous release's body, and the
-- compressed forms are made once, at publishing, rather than per request.
create table release_blobs (
  sha256 text primary key,
  content bytea not null,
  gzip bytea not null,
  br bytea not null,
  bytes integer not null,
  created_at timestamptz not null default now()
);

create table releases (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  number integer not null,
  -- SHA-256 over the names and hashes of the release's objects: publishing an unchanged project finds it equal.
  content_hash text not null,
  locales jsonb not null,
  shape text not null,
  files boolean not null,
  trigger text not null check (trigger in ('api', 'batch')),
  batch_id text,
  created_at timestamptz not null default now(),
  unique (project_id, number)
);

create table release_objects (
  release_id text not null references releases (id) on delete cascade,
  -- The path under /cdn/{bundle_id}/{release}/: 'de.json', 'manifest.json', 'files/locales/de.json'.
  name text not null,
  kind text not null check (kind in ('bundle', 'file', 'manifest')),
  locale text,
  source_path text,
  format text,
  keys integer not null,
  content_type text not null,
  sha256 text not null,
  bytes integer not null,
  primary key (release_id, name)
);

create table storage_targets (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  name text not null,
  kind text not null check (kind in ('s3', 'azure_blob')),
  enabled boolean not null default true,
  -- Where the files go (endpoint, region, bucket, path style; or container and account URL): never secret.
  settings jsonb not null,
  -- The credentials as JSON, encrypted (AES-256-GCM, PARLANCE_SECRET_KEY) and never returned; the hint (the end of
  -- an access key id, the account name) lets a person tell two sets apart.
  credentials_ciphertext text not null,
  credentials_hint text not null,
  prefix text not null default '',
  path_template text not null,
  files_template text,
  cache_control text,
  status text not null default 'idle' check (status in ('idle', 'pending', 'syncing', 'ok', 'failed')),
  last_error text,
  last_release_number integer,
  last_synced_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index storage_targets_project on storage_targets (project_id, id);

-- One sync of one release to one target: queued in the database and claimed with a lease, like webhook deliveries.
create table storage_syncs (
  id text primary key,
  target_id text not null references storage_targets (id) on delete cascade,
  release_id text not null references releases (id) on delete cascade,
  trigger text not null check (trigger in ('release', 'api')),
  status text not null check (status in ('pending', 'running', 'succeeded', 'failed', 'superseded')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_owner text,
  lease_expires_at timestamptz,
  uploaded integer not null default 0,
  unchanged integer not null default 0,
  error text,
  log jsonb not null default '[]',
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index storage_syncs_target on storage_syncs (target_id, id);
create index storage_syncs_due on storage_syncs (next_attempt_at) where status = 'pending';
