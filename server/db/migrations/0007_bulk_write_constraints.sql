-- The tables a push and a batch write tens of thousands of rows into at a time no longer check their parent row per
-- written row: a foreign key runs one lookup (and a row lock on the parent) for every inserted row, about a fifth of
-- a batch's database time. Their parents are written by the same code paths that write them (a key's id comes from
-- the keys just read or created, a memory entry's organisation from its project), and the cascades the keys kept
-- are kept as statement-level triggers: deleting projects, keys, batches or organisations still deletes what hung
-- off them, once per statement instead of once per row. See docs/decisions.md.
alter table keys drop constraint keys_project_id_fkey;
alter table translations drop constraint translations_key_id_fkey;
alter table batch_rows drop constraint batch_rows_batch_id_fkey;
alter table batch_rows drop constraint batch_rows_key_id_fkey;
alter table memory_entries drop constraint memory_entries_organisation_id_fkey;

create function parlance_delete_project_keys() returns trigger language plpgsql as $$ begin delete from keys k using gone g where k.project_id = g.id; return null; end $$;
create trigger projects_delete_keys after delete on projects referencing old table as gone for each statement execute function parlance_delete_project_keys();

create function parlance_delete_key_rows() returns trigger language plpgsql as $$ begin delete from translations t using gone g where t.key_id = g.id; delete from batch_rows r using gone g where r.key_id = g.id; return null; end $$;
create trigger keys_delete_rows after delete on keys referencing old table as gone for each statement execute function parlance_delete_key_rows();

create function parlance_delete_batch_rows() returns trigger language plpgsql as $$ begin delete from batch_rows r using gone g where r.batch_id = g.id; return null; end $$;
create trigger batches_delete_rows after delete on batches referencing old table as gone for each statement execute function parlance_delete_batch_rows();

create function parlance_delete_organisation_memory() returns trigger language plpgsql as $$ begin delete from memory_entries m using gone g where m.organisation_id = g.id; return null; end $$;
create trigger organisations_delete_memory after delete on organisations referencing old table as gone for each statement execute function parlance_delete_organisation_memory();
