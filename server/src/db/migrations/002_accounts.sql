-- Accounts, bearer tokens, password-reset codes, rate-limit counters and the daily lookup count.
-- Every time column is written from the server's clock (deps.now), never from now(), so expiry and
-- the daily reset follow one clock that tests can move.

create table users (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  -- Stored already trimmed and lower-cased by the contract schema.
  email text not null,
  password_hash text not null,
  created_at timestamptz not null
);
-- The race between two registrations of one e-mail is decided here: the loser gets 23505.
create unique index users_email_folded on users (lower(btrim(email)));

create table auth_tokens (
  -- sha256 of the token, hex; the token itself is never stored.
  token_hash text primary key,
  user_id uuid not null references users(id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index auth_tokens_user on auth_tokens (user_id) where revoked_at is null;

create table password_resets (
  id bigserial primary key,
  user_id uuid not null references users(id) on delete cascade,
  -- The reset body carries only the code, so its public selector finds the row and wrong tries
  -- can be counted against that one code.
  selector text not null unique,
  verifier_hash text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  failed_attempts integer not null default 0,
  used_at timestamptz
);
create index password_resets_user on password_resets (user_id) where used_at is null;

-- Fixed-window counters shared by every server process.
create table rate_limits (
  key text not null,
  window_start timestamptz not null,
  count integer not null,
  primary key (key, window_start)
);
create index rate_limits_window on rate_limits (window_start);

create table usage_daily (
  user_id uuid not null references users(id) on delete cascade,
  -- Calendar day in Asia/Ho_Chi_Minh.
  day date not null,
  count integer not null check (count >= 0),
  primary key (user_id, day)
);
