ALTER TABLE "sellers" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sellers" ADD COLUMN "deactivation_version" integer DEFAULT 0 NOT NULL;