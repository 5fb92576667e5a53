CREATE TABLE "member_conversations" (
	"user_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	CONSTRAINT "member_conversations_user_id_conversation_id_pk" PRIMARY KEY("user_id","conversation_id")
);
