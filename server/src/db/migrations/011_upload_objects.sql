-- Photo bytes kept in the database (UPLOAD_STORE=database, the default with DATABASE_URL), so every
-- server process on every machine sharing the database serves every photo. One row per stored object
-- (an image or its thumbnail), under the same keys the disk and S3 stores use.

create table upload_objects (
  key text primary key,
  content_type text not null,
  bytes bytea not null,
  created_at timestamptz not null default now()
);
