CREATE TABLE "saved_search_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"saved_search_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"mailed_at" timestamp with time zone,
	"mail_id" text
);
--> statement-breakpoint
CREATE TABLE "saved_search_mail_state" (
	"saved_search_id" integer PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"last_mailed_at" timestamp with time zone,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "saved_search_alerts_pending_idx" ON "saved_search_alerts" USING btree ("saved_search_id","created_at") WHERE "saved_search_alerts"."mailed_at" is null;