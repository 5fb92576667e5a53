-- Class book lists. « Ma liste » compares a list's books with the listings by
-- normalised title (no accents, case, spaces or punctuation) and by ISBN (digits and X): both
-- functions are IMMUTABLE so indexes and the generated column can use them.
CREATE OR REPLACE FUNCTION cartable_title_key(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT regexp_replace(lower(public.cartable_unaccent($1)), '[^a-z0-9]+', '', 'g') $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cartable_isbn_key(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT nullif(upper(regexp_replace($1, '[^0-9Xx]+', '', 'g')), '') $$;
--> statement-breakpoint
CREATE TABLE "class_list_alerts" (
	"user_id" uuid NOT NULL,
	"list_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_list_alerts_user_id_list_id_item_id_book_id_pk" PRIMARY KEY("user_id","list_id","item_id","book_id")
);
--> statement-breakpoint
CREATE TABLE "class_list_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"list_id" integer NOT NULL,
	"title" text NOT NULL,
	"author" text DEFAULT '' NOT NULL,
	"publisher" text,
	"edition" text,
	"year" integer,
	"isbn" text,
	"subject_id" integer,
	"requirement" text DEFAULT 'required' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"title_key" text GENERATED ALWAYS AS (cartable_title_key(title)) STORED
);
--> statement-breakpoint
CREATE TABLE "class_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_year" text NOT NULL,
	"level_id" integer NOT NULL,
	"kind" text DEFAULT 'official' NOT NULL,
	"school_name" text,
	"city_id" integer,
	"status" text DEFAULT 'draft' NOT NULL,
	"source_note" text,
	"rejection_reason" text,
	"proposed_by" uuid,
	"reviewed_by" uuid,
	"seed_key" text,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_lists_seed_key_unique" UNIQUE("seed_key")
);
--> statement-breakpoint
CREATE TABLE "saved_class_lists" (
	"user_id" uuid NOT NULL,
	"list_id" integer NOT NULL,
	"city_id" integer,
	"owned_item_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_class_lists_user_id_list_id_pk" PRIMARY KEY("user_id","list_id")
);
--> statement-breakpoint
ALTER TABLE "class_list_items" ADD CONSTRAINT "class_list_items_list_id_class_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."class_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_lists" ADD CONSTRAINT "class_lists_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_class_lists" ADD CONSTRAINT "saved_class_lists_list_id_class_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."class_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_class_lists" ADD CONSTRAINT "saved_class_lists_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_list_items_list_idx" ON "class_list_items" USING btree ("list_id","position");--> statement-breakpoint
CREATE INDEX "class_list_items_title_key_idx" ON "class_list_items" USING btree ("title_key");--> statement-breakpoint
CREATE INDEX "class_list_items_isbn_idx" ON "class_list_items" USING btree ("isbn") WHERE isbn is not null;--> statement-breakpoint
CREATE INDEX "class_list_items_title_trgm_idx" ON "class_list_items" USING gin (cartable_unaccent(lower("title")) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "class_lists_year_level_school_key" ON "class_lists" USING btree ("school_year","level_id","kind",lower(coalesce("school_name", ''))) WHERE status in ('draft', 'published');--> statement-breakpoint
CREATE INDEX "class_lists_level_idx" ON "class_lists" USING btree ("level_id","school_year");--> statement-breakpoint
CREATE INDEX "class_lists_status_idx" ON "class_lists" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "saved_class_lists_list_idx" ON "saved_class_lists" USING btree ("list_id");--> statement-breakpoint
CREATE INDEX "books_listed_title_key_idx" ON "books" USING btree (cartable_title_key("title") text_pattern_ops) WHERE status <> 'vendu';--> statement-breakpoint
CREATE INDEX "books_listed_isbn_key_idx" ON "books" USING btree (cartable_isbn_key("isbn")) WHERE status <> 'vendu' and isbn is not null;