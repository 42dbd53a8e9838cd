-- What each Idempotency-Key was first used for: the SHA-256 of its files, in order. A retry sends the
-- same files and gets the first answer; other files under the same key are refused (409) instead of
-- being answered with photos they are not. Null for requests recorded before this column.
alter table upload_requests add column files_sha256 text;
