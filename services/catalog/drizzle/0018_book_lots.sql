CREATE TABLE "book_lot_items" (
	"book_id" integer NOT NULL,
	"position" integer NOT NULL,
	"class_list_item_id" integer,
	"title" text NOT NULL,
	"author" text DEFAULT '' NOT NULL,
	"publisher" text,
	"year" integer,
	"isbn" text,
	"subject_id" integer,
	"title_key" text GENERATED ALWAYS AS (cartable_title_key(title)) STORED,
	"isbn_key" text GENERATED ALWAYS AS (cartable_isbn_key(isbn)) STORED,
	CONSTRAINT "book_lot_items_book_id_position_pk" PRIMARY KEY("book_id","position")
);
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "lot_titles" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "lot_authors" text;--> statement-breakpoint
-- A generated column cannot change its expression before PostgreSQL 17: dropped (with its index) and added again.
ALTER TABLE "books" drop column "search";--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('french', cartable_unaccent(coalesce(title, ''))), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(author, ''))), 'B') ||
          setweight(to_tsvector('simple', coalesce(isbn, '')), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(description, ''))), 'C') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(lot_titles, ''))), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(lot_authors, ''))), 'B')) STORED;--> statement-breakpoint
CREATE INDEX "books_search_idx" ON "books" USING gin ("search");--> statement-breakpoint
ALTER TABLE "book_lot_items" ADD CONSTRAINT "book_lot_items_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "book_lot_items_title_key_idx" ON "book_lot_items" USING btree ("title_key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "book_lot_items_isbn_key_idx" ON "book_lot_items" USING btree ("isbn_key") WHERE isbn_key is not null;