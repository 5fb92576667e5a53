CREATE TABLE "member_books" (
	"book_id" integer PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"version" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "member_books_user_idx" ON "member_books" USING btree ("user_id");