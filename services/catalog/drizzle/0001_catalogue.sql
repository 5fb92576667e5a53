CREATE TABLE "banners" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"image_key" text,
	"button_text" text,
	"button_link" text,
	"color" text DEFAULT 'dark' NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "book_images" (
	"book_id" integer NOT NULL,
	"slot" integer NOT NULL,
	"display_key" text NOT NULL,
	"thumbnail_key" text NOT NULL,
	CONSTRAINT "book_images_book_id_slot_pk" PRIMARY KEY("book_id","slot")
);
--> statement-breakpoint
CREATE TABLE "books" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"author" text NOT NULL,
	"isbn" text,
	"description" text,
	"publisher" text,
	"publication_year" integer,
	"condition" text NOT NULL,
	"price" integer NOT NULL,
	"status" text DEFAULT 'disponible' NOT NULL,
	"city_id" integer,
	"is_negotiable" boolean DEFAULT false NOT NULL,
	"is_exchange_possible" boolean DEFAULT false NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"category_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('french', cartable_unaccent(coalesce(title, ''))), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(author, ''))), 'B') ||
          setweight(to_tsvector('simple', coalesce(isbn, '')), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(description, ''))), 'C')) STORED
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "category_parents" (
	"category_id" integer NOT NULL,
	"parent_id" integer NOT NULL,
	CONSTRAINT "category_parents_category_id_parent_id_pk" PRIMARY KEY("category_id","parent_id")
);
--> statement-breakpoint
CREATE TABLE "cities" (
	"id" serial PRIMARY KEY NOT NULL,
	"country_id" integer NOT NULL,
	"province_id" integer,
	"name" text NOT NULL,
	"is_major" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"id" integer PRIMARY KEY NOT NULL,
	"alpha2" text NOT NULL,
	"alpha3" text NOT NULL,
	"nom_fr_fr" text NOT NULL,
	CONSTRAINT "countries_alpha2_unique" UNIQUE("alpha2")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "processed_events" (
	"consumer" text NOT NULL,
	"event_id" uuid NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_events_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "provinces" (
	"id" serial PRIMARY KEY NOT NULL,
	"country_id" integer NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sellers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"username" text NOT NULL,
	"profile_image" text,
	"country_id" integer,
	"city_id" integer,
	"email" text,
	"phone" text,
	"rating_average" double precision DEFAULT 0 NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "book_images" ADD CONSTRAINT "book_images_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_parents" ADD CONSTRAINT "category_parents_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_parents" ADD CONSTRAINT "category_parents_parent_id_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cities" ADD CONSTRAINT "cities_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cities" ADD CONSTRAINT "cities_province_id_provinces_id_fk" FOREIGN KEY ("province_id") REFERENCES "public"."provinces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provinces" ADD CONSTRAINT "provinces_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "books_search_idx" ON "books" USING gin ("search");--> statement-breakpoint
CREATE INDEX "books_title_trgm_idx" ON "books" USING gin (cartable_unaccent(lower("title")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "books_author_trgm_idx" ON "books" USING gin (cartable_unaccent(lower("author")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "books_categories_idx" ON "books" USING gin ("category_ids");--> statement-breakpoint
CREATE INDEX "books_listed_created_idx" ON "books" USING btree ("created_at","id") WHERE status <> 'vendu';--> statement-breakpoint
CREATE INDEX "books_listed_price_idx" ON "books" USING btree ("price","id") WHERE status <> 'vendu';--> statement-breakpoint
CREATE INDEX "books_listed_title_idx" ON "books" USING btree (lower("title"),"id") WHERE status <> 'vendu';--> statement-breakpoint
CREATE INDEX "books_listed_views_idx" ON "books" USING btree ("views","id") WHERE status <> 'vendu';--> statement-breakpoint
CREATE INDEX "books_city_idx" ON "books" USING btree ("city_id");--> statement-breakpoint
CREATE INDEX "books_user_idx" ON "books" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "books_condition_idx" ON "books" USING btree ("condition");--> statement-breakpoint
CREATE INDEX "category_parents_parent_idx" ON "category_parents" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cities_country_name_key" ON "cities" USING btree ("country_id","name");--> statement-breakpoint
CREATE INDEX "cities_province_idx" ON "cities" USING btree ("province_id");--> statement-breakpoint
CREATE INDEX "outbox_unsent_idx" ON "outbox" USING btree ("occurred_at") WHERE sent_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "provinces_country_name_key" ON "provinces" USING btree ("country_id","name");