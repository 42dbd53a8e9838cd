-- Distinct street names for the search (server/src/geo/search.ts). A street is many segments, and a
-- common name runs through many wards: at a million parcels "duong h" matched 2,434 segments of 1,217
-- (street, ward) pairs but only 24 names. Ranking depends on the name alone, so the search ranks these
-- rows, one per name and class, and reads the segments of the few names it answers. The database keeps
-- the table from the segments (triggers below), so whatever writes streets (seed, importers, dataset
-- removal) feeds it with nothing more, as with name_key.
create table street_names (
  name text not null,
  class text not null,
  -- Segments of the name and class; the row goes with the last one.
  segments integer not null,
  name_fold text generated always as (vn_fold(name)) stored,
  name_key text generated always as (regexp_replace(vn_fold(name), '^(duong|hem|phuong|xa|thanh pho|tinh) ', '')) stored,
  -- The name without "duong" after its start or a house number ("hem 12 duong le loi" → "hem 12 le loi"):
  -- the third prefix test of the ranking, stored so that every prefix test has an index.
  name_bare text generated always as (regexp_replace(vn_fold(name), '(^|[ /0-9]+)duong ', '\1')) stored,
  primary key (name, class)
);
create index street_names_fold on street_names using gin (name_fold gin_trgm_ops);
-- The planner estimates a trigram condition by trying it on every value of the column's histogram, at
-- each planning of each search: ten values are enough to choose the trigram index, at a tenth of the cost.
alter table street_names alter column name_fold set statistics 10;
create index street_names_fold_prefix on street_names (name_fold text_pattern_ops);
create index street_names_key_prefix on street_names (name_key text_pattern_ops);
create index street_names_bare_prefix on street_names (name_bare text_pattern_ops);
-- The segments of a name, grouped by ward: the answers for the names the search picked.
create index streets_name on streets (name, class, province, ward);

-- A statement's names are recounted from streets, one writing transaction at a time: the advisory lock
-- is held to the end of the transaction, so a second writer recounts only after the first committed, and
-- (reading committed data, as every writer here does) counts its segments too. Counting up and down under
-- row locks instead would let two imports that share street names deadlock on them.
create function street_names_changed() returns trigger language plpgsql as $$
declare
  names text[];
  classes text[];
begin
  if tg_op = 'INSERT' then
    select array_agg(name), array_agg(class) into names, classes from (select distinct name, class from added) k;
  elsif tg_op = 'DELETE' then
    select array_agg(name), array_agg(class) into names, classes from (select distinct name, class from removed) k;
  else
    -- Only names whose segments changed in number: most updates (a width) change none.
    select array_agg(name), array_agg(class) into names, classes
    from (select name, class from (select name, class, 1 as n from added union all select name, class, -1 from removed) c
          group by name, class having sum(n) <> 0) k;
  end if;
  if names is null then
    return null;
  end if;
  perform pg_advisory_xact_lock(7201003);
  delete from street_names n using unnest(names, classes) k(name, class) where (n.name, n.class) = (k.name, k.class);
  insert into street_names (name, class, segments)
  select s.name, s.class, count(*)::int from streets s join unnest(names, classes) k(name, class) on (s.name, s.class) = (k.name, k.class)
  group by s.name, s.class;
  return null;
end $$;

create trigger street_names_insert after insert on streets referencing new table as added
  for each statement execute function street_names_changed();
create trigger street_names_delete after delete on streets referencing old table as removed
  for each statement execute function street_names_changed();
create trigger street_names_update after update on streets referencing old table as removed new table as added
  for each statement execute function street_names_changed();

insert into street_names (name, class, segments) select name, class, count(*)::int from streets group by name, class;
