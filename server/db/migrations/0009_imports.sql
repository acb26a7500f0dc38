-- Imports from other localization platforms: a job per import, resumable from its checkpoint after a crash.

create table imports (
  id text primary key,
  project_id text not null references projects (id) on delete cascade,
  platform text not null check (platform in ('crowdin', 'lokalise', 'phrase', 'transifex', 'tolgee', 'poeditor')),
  source text not null check (source in ('api', 'archive')),
  status text not null check (status in ('queued', 'running', 'completed', 'failed', 'cancelled')),
  options jsonb not null,
  -- The platform's token and project for an API import, encrypted (PARLANCE_SECRET_KEY); cleared when the import ends.
  credentials_ciphertext text,
  -- The uploaded export for an archive import; cleared when the import ends.
  archive bytea,
  archive_name text,
  -- The reader's own position, saved with every chunk it writes: a restarted import continues from here.
  checkpoint jsonb,
  progress jsonb not null default '{}',
  report jsonb not null default '{}',
  error text,
  attempts integer not null default 0,
  lease_owner text,
  lease_expires_at timestamptz,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index imports_project on imports (project_id, id);
create index imports_open on imports (status) where status in ('queued', 'running');

-- Tags from the platforms a project came from (Crowdin labels, Lokalise and Phrase tags, …).
alter table keys add column tags jsonb;
