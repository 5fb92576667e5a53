-- Counting a view rewrote the listing's entry in each of the table's 21 indexes (the French
-- full-text and trigram GIN indexes among them): an UPDATE of an indexed column is never HOT.
-- A flush of 3,800 views cost PostgreSQL 1.4 s of CPU. Views are no longer indexed, and pages
-- keep a fifth free, so a view is a HOT update of the row alone (3,800 in about 30 ms).
-- The sorts by popularity (« À la une », the recommendations, a page sorted by popularity) read
-- the views from each replica's listing index (src/domain/listing-index.ts), which the trigger
-- below keeps up to date; the back office's sort by views reads the table.
-- Rows already written move to pages with room as they are next updated (no table rewrite here).
DROP INDEX IF EXISTS "books_listed_views_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "books_views_idx";--> statement-breakpoint
ALTER TABLE "books" SET (fillfactor = 80);--> statement-breakpoint
-- The new counts of a statement's changed views, as "id:views,id:views…" on the channel
-- cartable_listing_views (at most 400 a notification, under NOTIFY's 8,000 bytes), once committed.
CREATE FUNCTION cartable_notify_listing_views() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  part text;
BEGIN
  FOR part IN
    SELECT string_agg(changed.id || ':' || changed.views, ',')
    FROM (
      SELECT n.id, n.views, (row_number() OVER ()) / 400 AS chunk
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.views IS DISTINCT FROM o.views
    ) changed
    GROUP BY changed.chunk
  LOOP
    PERFORM pg_notify('cartable_listing_views', part);
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER books_views_changed AFTER UPDATE ON books
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cartable_notify_listing_views();
