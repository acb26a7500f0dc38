-- A project's own API keys for the providers that take one (PATCH /v1/project/translation `own_keys`): a JSON object
-- of kind to key, sealed with PARLANCE_SECRET_KEY (AES-256-GCM, bound to the project). Null: the operator's keys.
alter table projects add column provider_keys text;
