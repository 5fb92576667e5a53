ALTER TABLE "transactions" ADD COLUMN "book_isbn" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "book_condition" text;--> statement-breakpoint
-- Deals made before: the ISBN and condition their listing has now (the best record left).
UPDATE "transactions" t SET "book_isbn" = b."isbn", "book_condition" = b."condition" FROM "books" b WHERE b."id" = t."book_id";--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "book_isbn_key" text GENERATED ALWAYS AS (cartable_isbn_key(book_isbn)) STORED;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "book_title_key" text GENERATED ALWAYS AS (cartable_title_key(book_title)) STORED;--> statement-breakpoint
CREATE INDEX "transactions_sold_isbn_idx" ON "transactions" USING btree ("book_isbn_key","book_condition") WHERE status = 'confirmed' and kind = 'sale';--> statement-breakpoint
CREATE INDEX "transactions_sold_title_idx" ON "transactions" USING btree ("book_title_key","book_condition") WHERE status = 'confirmed' and kind = 'sale';