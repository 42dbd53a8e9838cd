create extension if not exists postgis;
create extension if not exists pg_trgm;
create extension if not exists unaccent;

-- unaccent() is only STABLE; an IMMUTABLE wrapper lets generated columns and indexes use it.
-- The folding matches DOMAIN.md: strip diacritics, đ→d, lowercase.
create or replace function vn_fold(t text) returns text
  language sql immutable parallel safe strict
  as $$ select lower(public.unaccent('public.unaccent'::regdictionary, replace(replace(t, 'đ', 'd'), 'Đ', 'D'))) $$;
