CREATE TABLE "login_sources" (
	"user_id" uuid NOT NULL,
	"source" text NOT NULL,
	"last_success_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_sources_user_id_source_pk" PRIMARY KEY("user_id","source")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_login_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "login_sources" ADD CONSTRAINT "login_sources_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;