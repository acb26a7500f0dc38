-- Plural keys (forms by CLDR category) and strings a file marks as not to be translated.

alter table keys add column source_plurals jsonb;
alter table keys add column translatable boolean not null default true;
alter table translations add column plurals jsonb;
