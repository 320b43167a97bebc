CREATE TABLE "vault_signature_cursors" (
	"escrow_wallet" text PRIMARY KEY NOT NULL,
	"newest_signature" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
