ALTER TABLE "refunds" ALTER COLUMN "created_by" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "last_checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payments_reconcile_idx" ON "payments" USING btree ("next_check_at") WHERE status in ('pending', 'ambiguous', 'failed') and next_check_at is not null;--> statement-breakpoint
CREATE INDEX "payments_payer_phone_idx" ON "payments" USING btree ("payer_phone","created_at");