-- Photos uploaded for valuations. The bytes live in the upload storage (DATA_DIR/uploads or an object
-- store) under storage_key / thumb_key; a row exists only once both objects are written.

create table uploads (
  -- Random and URL-safe; the id is also the public handle in /api/uploads/{id} and image_ids.
  id text primary key,
  user_id uuid not null references users(id) on delete cascade,
  width integer not null check (width > 0),
  height integer not null check (height > 0),
  bytes integer not null check (bytes > 0),
  content_type text not null,
  storage_key text not null,
  thumb_key text not null,
  thumb_content_type text not null,
  created_at timestamptz not null,
  -- The Idempotency-Key of the request that created the row (several rows share one).
  idempotency_key text
);
create index uploads_user on uploads (user_id, created_at);

-- One request answered per (account, Idempotency-Key): the first answer is kept and replayed, and two
-- concurrent retries race on this primary key, so only one of them ever records its uploads.
create table upload_requests (
  user_id uuid not null references users(id) on delete cascade,
  idempotency_key text not null,
  response jsonb not null,
  created_at timestamptz not null,
  primary key (user_id, idempotency_key)
);
