CREATE TABLE "class_list_holds" (
	"deal_id" uuid PRIMARY KEY NOT NULL,
	"book_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "class_list_holds_until_idx" ON "class_list_holds" USING btree ("until");--> statement-breakpoint
CREATE INDEX "class_list_holds_book_idx" ON "class_list_holds" USING btree ("book_id");