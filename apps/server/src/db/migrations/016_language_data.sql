-- A session's language is data, not part of the schema: the languages are the records of
-- packages/protocol/src/languages, and the server checks a new language against them
-- (LanguageSchema). A stored language that is no longer a record opens in the default one
-- (sessions/service.ts), so removing a record needs no migration, nor does adding one.
ALTER TABLE sessions DROP CONSTRAINT IF EXISTS sessions_language_check;
