CREATE TABLE "exchange_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"signature" text NOT NULL,
	"member_ids" uuid[] NOT NULL,
	"book_ids" integer[] NOT NULL,
	"legs" jsonb NOT NULL,
	"area" text NOT NULL,
	"accepted_by" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"declined_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_suggestions_signature_unique" UNIQUE("signature")
);
--> statement-breakpoint
CREATE TABLE "exchange_wishes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"class_list_item_id" integer,
	"level_id" integer,
	"subject_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_wishes_what" CHECK (class_list_item_id is not null or (level_id is not null and subject_id is not null))
);
--> statement-breakpoint
ALTER TABLE "exchange_wishes" ADD CONSTRAINT "exchange_wishes_class_list_item_id_class_list_items_id_fk" FOREIGN KEY ("class_list_item_id") REFERENCES "public"."class_list_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_wishes" ADD CONSTRAINT "exchange_wishes_level_id_categories_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_wishes" ADD CONSTRAINT "exchange_wishes_subject_id_categories_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exchange_suggestions_members_idx" ON "exchange_suggestions" USING gin ("member_ids");--> statement-breakpoint
CREATE INDEX "exchange_suggestions_open_idx" ON "exchange_suggestions" USING btree ("created_at") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "exchange_wishes_user_idx" ON "exchange_wishes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_wishes_item_key" ON "exchange_wishes" USING btree ("user_id","class_list_item_id") WHERE class_list_item_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_wishes_subject_key" ON "exchange_wishes" USING btree ("user_id","level_id","subject_id") WHERE class_list_item_id is null;