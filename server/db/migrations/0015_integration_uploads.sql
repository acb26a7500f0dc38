-- Files people upload to a connection (PUT /v1/integrations/{connector}/{id}/file): a design tool's export (a Sketch
-- document, a Penpot file) that its connector reads on each sync. One per connection: a new upload replaces it.
create table integration_uploads (
  connection_id text primary key references integration_connections (id) on delete cascade,
  name text not null,
  size integer not null,
  sha256 text not null,
  content bytea not null,
  uploaded_at timestamptz not null default now()
);

-- A value a vendor sends once when a webhook subscription is made, for a person to confirm in the vendor's app and set
-- as the webhook secret (Notion's verification token): sealed like the secrets, shown to the connection's managers.
alter table integration_connections add column webhook_handshake_ciphertext text;
alter table integration_connections add column webhook_handshake_at timestamptz;

-- What a connector keeps between its listings (a vendor's cursor into its change feed, such as Airtable's webhook
-- payloads): written once a listing is pushed, given back to the next.
alter table integration_connections add column connector_state jsonb;

-- An upload starts a sync of its own kind.
alter table integration_syncs drop constraint integration_syncs_trigger_check;
alter table integration_syncs add constraint integration_syncs_trigger_check check (trigger in ('api', 'connect', 'schedule', 'webhook', 'upload'));
