-- Catalogue search: French full-text without accents, and trigram similarity for typos.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- unaccent() is only STABLE (it reads a dictionary); indexes and generated columns need an
-- IMMUTABLE function, so this wrapper names the dictionary explicitly.
CREATE OR REPLACE FUNCTION cartable_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;
