-- What the listings module publishes for the other modules of catalog to read: its listings and
-- the books of its lots, read-only, as views. A module reads these, never the tables behind
-- them, so listings may change its tables without touching another module's queries. Simple
-- views are flattened into the queries that read them: the planner uses the tables' indexes
-- (partial, covering and expression ones alike) as if the tables were named.
CREATE VIEW listing_facts AS
  SELECT id, user_id, title, author, isbn, description, publisher, publication_year, condition, price,
    status, city_id, is_negotiable, is_exchange_possible, views, category_ids, created_at, updated_at,
    hidden_at, hidden_reason, seller_away, search, lot_titles IS NOT NULL AS is_lot
  FROM books;
--> statement-breakpoint
CREATE VIEW lot_item_facts AS
  SELECT book_id, position, class_list_item_id, title, author, publisher, year, isbn, subject_id, title_key, isbn_key
  FROM book_lot_items;
--> statement-breakpoint
-- Search estimates a page's total with an EXPLAIN whose values are bound parameters: no text
-- assembled from a request reaches SQL any more.
DROP FUNCTION IF EXISTS cartable_listing_estimate(text);
