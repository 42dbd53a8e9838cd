-- vn_fold() folds white space as core/text/fold.ts does, so the app, the server and the database fold a name
-- the same way (server/src/search/vn-fold.test.ts holds both sides to the same cases): runs of white space
-- (JavaScript's \s, spelled out) become one space, none at either end. The earlier function kept double
-- spaces, tabs and no-break spaces as they came. unaccent() stays: it drops the marks as fold.ts's NFD
-- does, at a sixth of normalize()'s cost, and fold.ts writes the punctuation it rewrites (’ to ') the same.
-- Runs of two or more, or a single space other than ' ', are what is rewritten: replacing every single
-- space too made the function five times slower (docs/performance.md).
create or replace function vn_fold(t text) returns text
  language sql immutable parallel safe strict
  as $$ select btrim(regexp_replace(lower(public.unaccent('public.unaccent'::regdictionary, replace(replace(t, 'đ', 'd'), 'Đ', 'D'))),
    '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]{2,}|[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]',
    ' ', 'g'), ' ') $$;

-- Stored folds follow the new rule where it changes them (a row is rewritten, so its generated columns and
-- their indexes are computed again; street_names follows streets through its triggers).
update admin_units set name = name where name_fold is distinct from vn_fold(name);
update streets set name = name where name_fold is distinct from vn_fold(name);
update parcels set address = address where address_fold is distinct from vn_fold(address);
update price_rows set street_name = street_name where street_fold is distinct from vn_fold(street_name);
update parcel_places set name = name where name_fold is distinct from vn_fold(name);
update street_names set name = name where name_fold is distinct from vn_fold(name);
