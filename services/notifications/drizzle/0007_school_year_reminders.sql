CREATE TABLE "school_year_reminders" (
	"user_id" uuid NOT NULL,
	"season" text NOT NULL,
	"year" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "school_year_reminders_user_id_season_year_pk" PRIMARY KEY("user_id","season","year")
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "status_version" integer DEFAULT 0 NOT NULL;