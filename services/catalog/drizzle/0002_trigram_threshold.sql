-- A typo such as « mathematqiues » scores about 0.55 against « mathématiques » (word
-- similarity); pg_trgm's default of 0.6 would miss it. Every new session of this database uses
-- 0.5, and so does the one running this migration.
DO $$ BEGIN
  EXECUTE format('ALTER DATABASE %I SET pg_trgm.word_similarity_threshold = 0.5', current_database());
END $$;
--> statement-breakpoint
SET pg_trgm.word_similarity_threshold = 0.5;
