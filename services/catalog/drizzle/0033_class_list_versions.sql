CREATE TABLE "class_list_versions" (
	"list_id" integer NOT NULL,
	"number" integer NOT NULL,
	"source" text NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_list_versions_list_id_number_pk" PRIMARY KEY("list_id","number")
);
--> statement-breakpoint
CREATE TABLE "class_list_withdrawals" (
	"list_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"isbn" text,
	"title_key" text GENERATED ALWAYS AS (cartable_title_key(title)) STORED,
	"withdrawn_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_list_withdrawals_list_id_item_id_pk" PRIMARY KEY("list_id","item_id")
);
--> statement-breakpoint
ALTER TABLE "class_list_versions" ADD CONSTRAINT "class_list_versions_list_id_class_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."class_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_list_withdrawals" ADD CONSTRAINT "class_list_withdrawals_list_id_class_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."class_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "class_list_withdrawals_title_key_idx" ON "class_list_withdrawals" USING btree ("title_key");--> statement-breakpoint
CREATE INDEX "class_list_withdrawals_isbn_idx" ON "class_list_withdrawals" USING btree ("isbn") WHERE isbn is not null;