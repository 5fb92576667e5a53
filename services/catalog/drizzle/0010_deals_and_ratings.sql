CREATE TABLE "book_contacts" (
	"book_id" integer NOT NULL,
	"member_id" uuid NOT NULL,
	"other_id" uuid NOT NULL,
	"first_message_at" timestamp with time zone NOT NULL,
	"last_message_at" timestamp with time zone NOT NULL,
	CONSTRAINT "book_contacts_book_id_member_id_other_id_pk" PRIMARY KEY("book_id","member_id","other_id")
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"from_user_id" uuid NOT NULL,
	"to_user_id" uuid NOT NULL,
	"rating" smallint NOT NULL,
	"comment" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"book_id" integer NOT NULL,
	"book_title" text NOT NULL,
	"seller_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"price" integer,
	"exchange_book_id" integer,
	"exchange_book_title" text,
	"status" text DEFAULT 'proposed' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"declined_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid
);
--> statement-breakpoint
ALTER TABLE "sellers" ADD COLUMN "rating_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_transaction_author_key" ON "reviews" USING btree ("transaction_id","from_user_id");--> statement-breakpoint
CREATE INDEX "reviews_to_user_idx" ON "reviews" USING btree ("to_user_id","created_at");--> statement-breakpoint
CREATE INDEX "reviews_from_user_idx" ON "reviews" USING btree ("from_user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_open_key" ON "transactions" USING btree ("book_id","buyer_id") WHERE status = 'proposed';--> statement-breakpoint
CREATE INDEX "transactions_seller_idx" ON "transactions" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_buyer_idx" ON "transactions" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "transactions_book_idx" ON "transactions" USING btree ("book_id");--> statement-breakpoint
CREATE INDEX "transactions_exchange_book_idx" ON "transactions" USING btree ("exchange_book_id") WHERE exchange_book_id is not null;