-- Every change of a listing that the catalogue's filters read is notified with its id on the
-- channel cartable_listings, once committed (NOTIFY is transactional): each catalog replica keeps
-- its in-memory listing index (src/domain/listing-index-feed.ts) equal to the table by reading
-- those rows back. A change of views alone (counted all day) is not notified: no filter reads it.
CREATE FUNCTION cartable_notify_listing_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cartable_listings', (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER books_listing_added_or_removed AFTER INSERT OR DELETE ON books
  FOR EACH ROW EXECUTE FUNCTION cartable_notify_listing_change();--> statement-breakpoint
CREATE TRIGGER books_listing_changed AFTER UPDATE ON books
  FOR EACH ROW WHEN (
    (OLD.status, OLD.hidden_at, OLD.seller_away, OLD.category_ids, OLD.price, OLD.city_id, OLD.condition,
      OLD.is_negotiable, OLD.is_exchange_possible, OLD.created_at, OLD.id)
    IS DISTINCT FROM
    (NEW.status, NEW.hidden_at, NEW.seller_away, NEW.category_ids, NEW.price, NEW.city_id, NEW.condition,
      NEW.is_negotiable, NEW.is_exchange_possible, NEW.created_at, NEW.id)
  ) EXECUTE FUNCTION cartable_notify_listing_change();
