CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- The words of a title and an author as the forgiving search compares them: lower case, no
-- accents, letters and digits, three characters or more, no bare number (an ISBN, a year).
CREATE FUNCTION cartable_search_words(title text, author text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(
    cartable_unaccent(lower(coalesce(title, '') || ' ' || coalesce(author, ''))), '[^[:alnum:]]+') AS w
  WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
$$;--> statement-breakpoint
-- Written in the listing's own transaction: a listing is never searchable without its words.
CREATE FUNCTION cartable_note_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word) SELECT cartable_search_words(NEW.title, NEW.author) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER books_search_words AFTER INSERT OR UPDATE OF title, author ON books
  FOR EACH ROW EXECUTE FUNCTION cartable_note_search_words();--> statement-breakpoint
INSERT INTO search_words (word) SELECT DISTINCT cartable_search_words(title, author) FROM books ON CONFLICT DO NOTHING;
