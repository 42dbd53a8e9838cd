-- Search keys: the folded name without its leading kind word ("duong", "hem", "phuong", "xa", "thanh pho",
-- "tinh"), kept by the database itself, so whatever writes streets and admin_units (seed, importers)
-- feeds the search with nothing more than the name. The prefix test of the ranking is then a plain
-- `like 'q%'` on an indexed column instead of a regexp_replace per candidate name.
alter table streets add column name_key text generated always as (regexp_replace(vn_fold(name), '^(duong|hem|phuong|xa|thanh pho|tinh) ', '')) stored;
create index streets_key_prefix on streets (name_key text_pattern_ops);
alter table admin_units add column name_key text generated always as (regexp_replace(vn_fold(name), '^(duong|hem|phuong|xa|thanh pho|tinh) ', '')) stored;
create index admin_units_key_prefix on admin_units (name_key text_pattern_ops);
