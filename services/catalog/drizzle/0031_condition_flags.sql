ALTER TABLE "books" ADD COLUMN "condition_flags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_condition_flags_known" CHECK ("books"."condition_flags" <@ array['annotated', 'filled_in', 'stamped', 'pages_missing', 'cover_damaged']::text[]);--> statement-breakpoint
-- The other modules read the flags through the listings' published view (a replaced view may
-- only gain columns at its end).
CREATE OR REPLACE VIEW listing_facts AS
  SELECT id, user_id, title, author, isbn, description, publisher, publication_year, condition, price,
    status, city_id, is_negotiable, is_exchange_possible, views, category_ids, created_at, updated_at,
    hidden_at, hidden_reason, seller_away, search, lot_titles IS NOT NULL AS is_lot, condition_flags
  FROM books;
--> statement-breakpoint
-- The flags are a filter of the listing index and part of what a card shows: a change of them
-- alone is notified on both channels, as the other columns are (0023, 0025).
DROP TRIGGER books_listing_changed ON books;--> statement-breakpoint
CREATE TRIGGER books_listing_changed AFTER UPDATE ON books
  FOR EACH ROW WHEN (
    (OLD.status, OLD.hidden_at, OLD.seller_away, OLD.category_ids, OLD.price, OLD.city_id, OLD.condition,
      OLD.condition_flags, OLD.is_negotiable, OLD.is_exchange_possible, OLD.created_at, OLD.id)
    IS DISTINCT FROM
    (NEW.status, NEW.hidden_at, NEW.seller_away, NEW.category_ids, NEW.price, NEW.city_id, NEW.condition,
      NEW.condition_flags, NEW.is_negotiable, NEW.is_exchange_possible, NEW.created_at, NEW.id)
  ) EXECUTE FUNCTION cartable_notify_listing_change();--> statement-breakpoint
DROP TRIGGER books_card_changed ON books;--> statement-breakpoint
-- Every column but views and search (a test checks that a new column is added here).
CREATE TRIGGER books_card_changed AFTER UPDATE ON books
  FOR EACH ROW WHEN (
    (OLD.id, OLD.user_id, OLD.title, OLD.author, OLD.isbn, OLD.description, OLD.publisher, OLD.publication_year,
      OLD.condition, OLD.condition_flags, OLD.price, OLD.status, OLD.city_id, OLD.is_negotiable,
      OLD.is_exchange_possible, OLD.category_ids, OLD.created_at, OLD.updated_at, OLD.version, OLD.hidden_at,
      OLD.hidden_reason, OLD.seller_away, OLD.lot_titles, OLD.lot_authors)
    IS DISTINCT FROM
    (NEW.id, NEW.user_id, NEW.title, NEW.author, NEW.isbn, NEW.description, NEW.publisher, NEW.publication_year,
      NEW.condition, NEW.condition_flags, NEW.price, NEW.status, NEW.city_id, NEW.is_negotiable,
      NEW.is_exchange_possible, NEW.category_ids, NEW.created_at, NEW.updated_at, NEW.version, NEW.hidden_at,
      NEW.hidden_reason, NEW.seller_away, NEW.lot_titles, NEW.lot_authors)
  ) EXECUTE FUNCTION cartable_notify_card_change();
