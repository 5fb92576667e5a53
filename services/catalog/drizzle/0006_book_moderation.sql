ALTER TABLE "books" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
CREATE INDEX "books_created_idx" ON "books" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "books_hidden_idx" ON "books" USING btree ("hidden_at") WHERE hidden_at is not null;