-- Translation quality: gate outcomes on batch rows and translations, held candidates awaiting review,
-- the glossary, translation memory and QA runs.

-- Default length budget as a percentage of the source length, for keys without their own max length (null: none).
alter table projects add column length_budget_percent integer;

-- accepted: machine translation that passed the gates; flagged: written but over its length budget, awaiting review;
-- approved: a reviewer accepted it; human: written by a person (a machine pass never overwrites it while the source is unchanged).
alter table translations add column state text not null default 'accepted' check (state in ('accepted', 'flagged', 'approved', 'human'));
alter table translations add column failures jsonb;
-- A glossary edit touched this key's source: the next push translates it again.
alter table translations add column stale boolean not null default false;
alter table translations add column reviewed_at timestamptz;

-- Candidates the gates refused after their corrective retry (held), or a reviewer rejected. Never written to a file.
create table held_translations (
  key_id text not null references keys (id) on delete cascade,
  locale text not null,
  text text not null,
  plurals jsonb,
  source_hash text not null,
  failures jsonb not null,
  origin text not null,
  batch_id text,
  state text not null check (state in ('held', 'rejected')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (key_id, locale)
);

alter table batch_rows add column gate_outcome text check (gate_outcome in ('passed', 'corrected', 'flagged', 'refused'));
alter table batch_rows add column failures jsonb;
alter table batch_rows add column retries integer not null default 0;

create table glossary_terms (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  term text not null,
  case_sensitive boolean not null default false,
  forbidden boolean not null default false,
  notes text,
  translations jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index glossary_terms_project_term on glossary_terms (project_id, lower(term));

-- Shared by the organisation's projects. source_sha identifies the source text (and plural forms) exactly.
create table memory_entries (
  organisation_id text not null references organisations (id) on delete cascade,
  source_locale text not null,
  locale text not null,
  source_sha text not null,
  source text not null,
  source_plurals jsonb,
  text text not null,
  plurals jsonb,
  origin text not null check (origin in ('fast', 'careful', 'human', 'tmx')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organisation_id, source_locale, locale, source_sha)
);

create table qa_runs (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  scope jsonb not null,
  checked integer not null,
  passed integer not null,
  flagged integer not null,
  refused integer not null,
  created_at timestamptz not null default now()
);
create index qa_runs_project on qa_runs (project_id, id);
