-- A project's own translation settings (GET/PATCH /v1/project/translation): provider and model per pass, and the
-- style guide sent with every request. Null: the operator's defaults, no style guide.
alter table projects add column translation_settings jsonb;
