-- Deleting an account (issue 31) anonymises its row instead of removing it: the id stays, so
-- the foreign keys and the authors of chat, pull requests and history keep pointing somewhere,
-- and every place that shows a name shows "Deleted user". Name, email, password and GitHub id
-- become null; the unique indexes on lower(email) and lower(name), and github_id's, let nulls
-- repeat, so the email and the username are free for anyone at once.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

ALTER TABLE users ALTER COLUMN name DROP NOT NULL, ALTER COLUMN email DROP NOT NULL;

ALTER TABLE users ADD CONSTRAINT users_deleted_is_blank CHECK (
  CASE WHEN deleted_at IS NULL THEN name IS NOT NULL AND email IS NOT NULL
  ELSE name IS NULL AND email IS NULL AND password_hash IS NULL AND github_id IS NULL END
);
