CREATE TABLE "members" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_notices" (
	"conversation_id" uuid NOT NULL,
	"receiver_id" uuid NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "message_notices_conversation_id_receiver_id_pk" PRIMARY KEY("conversation_id","receiver_id")
);
