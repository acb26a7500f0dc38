-- Webhooks: subscriptions, the event outbox and per-subscription deliveries with their attempts.

create table webhooks (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  url text not null,
  description text,
  -- Event kinds to send; empty means every kind.
  events text[] not null default '{}',
  enabled boolean not null default true,
  secret text not null,
  -- During a rotation the old secret keeps signing beside the new one until it expires.
  previous_secret text,
  previous_secret_expires_at timestamptz,
  disabled_reason text,
  disabled_at timestamptz,
  -- First failed delivery since the last success; a subscription failing for days is disabled.
  failing_since timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhooks_project on webhooks (project_id, id);

create table events (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  type text not null,
  payload text not null,
  created_at timestamptz not null default now()
);
create index events_project on events (project_id, id);

create table webhook_deliveries (
  id text primary key,
  webhook_id text not null references webhooks (id) on delete cascade,
  event_id text not null references events (id) on delete cascade,
  event_type text not null,
  status text not null check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  lease_owner text,
  lease_expires_at timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_webhook on webhook_deliveries (webhook_id, id);

create table webhook_attempts (
  id bigserial primary key,
  delivery_id text not null references webhook_deliveries (id) on delete cascade,
  attempt integer not null,
  started_at timestamptz not null default now(),
  status integer,
  latency_ms integer not null,
  response text,
  error text
);
create index webhook_attempts_delivery on webhook_attempts (delivery_id, id);

-- Batch rows that replaced a translation of an older source (or one a glossary change marked stale): source drift repaired.
alter table batch_rows add column repaired_drift boolean not null default false;
