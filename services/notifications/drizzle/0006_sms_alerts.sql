CREATE TABLE "alert_channels" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"email" boolean DEFAULT true NOT NULL,
	"sms" boolean DEFAULT false NOT NULL,
	"in_app" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_channels_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "alert_phones" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"verified_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	CONSTRAINT "alert_phones_phone_unique" UNIQUE("phone")
);
--> statement-breakpoint
CREATE TABLE "outgoing_sms" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"kind" text NOT NULL,
	"template" text NOT NULL,
	"data" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"provider_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"enqueued_at" timestamp with time zone,
	"not_before" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "phone_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "alert_channels_sms_idx" ON "alert_channels" USING btree ("user_id") WHERE "alert_channels"."sms";--> statement-breakpoint
CREATE INDEX "outgoing_sms_pending_idx" ON "outgoing_sms" USING btree ("id") WHERE "outgoing_sms"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "outgoing_sms_user_created_idx" ON "outgoing_sms" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "phone_codes_user_created_idx" ON "phone_codes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "phone_codes_phone_created_idx" ON "phone_codes" USING btree ("phone","created_at");