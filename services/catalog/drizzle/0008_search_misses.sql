CREATE TABLE "search_misses" (
	"day" date NOT NULL,
	"query" text NOT NULL,
	"category_id" integer DEFAULT 0 NOT NULL,
	"searches" integer DEFAULT 1 NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_misses_day_query_category_id_pk" PRIMARY KEY("day","query","category_id")
);
