-- Integrations: a project's connections to remote systems (code hosts, content systems, design and automation
-- tools) through the connector framework, their syncs, and what Parlance last read or wrote in each remote place.

create table integration_connections (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  connector text not null,
  name text not null,
  enabled boolean not null default true,
  -- What the connector needs that is not secret (base URL, space id, branch): returned by GET.
  settings jsonb not null,
  -- The credentials as JSON, encrypted (AES-256-GCM, PARLANCE_SECRET_KEY) and never returned.
  secrets_ciphertext text not null,
  -- The secret the remote system signs its change notifications with (or sends as a token), encrypted too.
  webhook_secret_ciphertext text not null,
  -- Minutes between scheduled syncs; null: on demand and on notifications only.
  schedule_minutes integer,
  next_scheduled_at timestamptz,
  status text not null default 'never_synced' check (status in ('never_synced', 'syncing', 'ok', 'retrying', 'error')),
  last_error text,
  last_sync_id text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index integration_connections_project on integration_connections (project_id, connector);
create index integration_connections_schedule on integration_connections (next_scheduled_at) where enabled and schedule_minutes is not null;

create table integration_syncs (
  id text primary key,
  connection_id text not null references integration_connections (id) on delete cascade,
  project_id text not null,
  trigger text not null check (trigger in ('api', 'connect', 'schedule', 'webhook')),
  -- queued: waits to be claimed (or for its retry); running: a worker holds its lease; waiting_batch: pushed, its
  -- batch runs; then succeeded, failed or cancelled.
  status text not null default 'queued' check (status in ('queued', 'running', 'waiting_batch', 'succeeded', 'failed', 'cancelled')),
  -- 'read': list, import edits and push; 'write': write the finished batch back.
  phase text not null default 'read' check (phase in ('read', 'write')),
  -- The batch of the push with rows to translate (one per unit pushed; batch_id is the first with rows).
  batch_id text,
  batch_ids jsonb not null default '[]',
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_owner text,
  lease_expires_at timestamptz,
  counts jsonb not null default '{}',
  error text,
  log jsonb not null default '[]',
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index integration_syncs_connection on integration_syncs (connection_id, created_at desc);
create index integration_syncs_due on integration_syncs (next_attempt_at) where status in ('queued', 'running');
create index integration_syncs_waiting on integration_syncs (batch_id) where status = 'waiting_batch';

-- Per remote place (a path and key of the connection, in one locale): the hash of the value Parlance last read there
-- or wrote there. A remote value that differs from it was changed by a person, and is imported, never overwritten.
create table integration_values (
  connection_id text not null references integration_connections (id) on delete cascade,
  path text not null,
  key text not null,
  locale text not null,
  value_hash text not null,
  primary key (connection_id, path, key, locale)
);

-- One running sync per connection: two at once would push and write back twice, and one could take the other's
-- write-back for a person's edit.
create unique index integration_syncs_one_running on integration_syncs (connection_id) where status = 'running';
