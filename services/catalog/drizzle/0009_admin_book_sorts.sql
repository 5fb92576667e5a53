CREATE INDEX "books_price_idx" ON "books" USING btree ("price","id");--> statement-breakpoint
CREATE INDEX "books_title_idx" ON "books" USING btree (lower("title"),"id");--> statement-breakpoint
CREATE INDEX "books_views_idx" ON "books" USING btree ("views","id");