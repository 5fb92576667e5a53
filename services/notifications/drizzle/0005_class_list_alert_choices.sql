ALTER TABLE "notification_preferences" ADD COLUMN "class_list_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "class_list_notices" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "unsubscribe_token" text;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_unsubscribe_token_unique" UNIQUE("unsubscribe_token");