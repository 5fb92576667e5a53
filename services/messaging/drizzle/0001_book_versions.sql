DROP INDEX "outbox_unsent_idx";--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "position" bigserial NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_unsent_idx" ON "outbox" USING btree ("position") WHERE sent_at is null;