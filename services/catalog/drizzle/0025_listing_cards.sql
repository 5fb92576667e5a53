-- Each catalog replica keeps the rows of the listings its pages show in memory
-- (src/domain/listing-cards.ts): every change of what such a row shows is notified on the channel
-- cartable_listing_cards, once committed: the listing's id, or '*' when a town or a province
-- changes (any row may name it). Views are not: they come on cartable_listing_views (0024), and
-- the search vector is computed from the columns listed.
CREATE FUNCTION cartable_notify_card_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'book_images' THEN
    PERFORM pg_notify('cartable_listing_cards', (CASE WHEN TG_OP = 'DELETE' THEN OLD.book_id ELSE NEW.book_id END)::text);
  ELSIF TG_TABLE_NAME = 'books' THEN
    PERFORM pg_notify('cartable_listing_cards', (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text);
  ELSE
    PERFORM pg_notify('cartable_listing_cards', '*');
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Every column but views and search (a test checks that a new column is added here).
CREATE TRIGGER books_card_changed AFTER UPDATE ON books
  FOR EACH ROW WHEN (
    (OLD.id, OLD.user_id, OLD.title, OLD.author, OLD.isbn, OLD.description, OLD.publisher, OLD.publication_year,
      OLD.condition, OLD.price, OLD.status, OLD.city_id, OLD.is_negotiable, OLD.is_exchange_possible, OLD.category_ids,
      OLD.created_at, OLD.updated_at, OLD.version, OLD.hidden_at, OLD.hidden_reason, OLD.seller_away, OLD.lot_titles,
      OLD.lot_authors)
    IS DISTINCT FROM
    (NEW.id, NEW.user_id, NEW.title, NEW.author, NEW.isbn, NEW.description, NEW.publisher, NEW.publication_year,
      NEW.condition, NEW.price, NEW.status, NEW.city_id, NEW.is_negotiable, NEW.is_exchange_possible, NEW.category_ids,
      NEW.created_at, NEW.updated_at, NEW.version, NEW.hidden_at, NEW.hidden_reason, NEW.seller_away, NEW.lot_titles,
      NEW.lot_authors)
  ) EXECUTE FUNCTION cartable_notify_card_change();--> statement-breakpoint
CREATE TRIGGER books_card_removed AFTER DELETE ON books
  FOR EACH ROW EXECUTE FUNCTION cartable_notify_card_change();--> statement-breakpoint
CREATE TRIGGER book_images_card_changed AFTER INSERT OR UPDATE OR DELETE ON book_images
  FOR EACH ROW EXECUTE FUNCTION cartable_notify_card_change();--> statement-breakpoint
CREATE TRIGGER cities_cards_changed AFTER UPDATE OR DELETE ON cities
  FOR EACH STATEMENT EXECUTE FUNCTION cartable_notify_card_change();--> statement-breakpoint
CREATE TRIGGER provinces_cards_changed AFTER UPDATE OR DELETE ON provinces
  FOR EACH STATEMENT EXECUTE FUNCTION cartable_notify_card_change();
