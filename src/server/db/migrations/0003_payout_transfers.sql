CREATE TABLE "payout_transfers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_transfers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"purpose" text NOT NULL,
	"claim_id" integer,
	"contribution_id" integer,
	"dare_id" integer,
	"escrow_wallet" text NOT NULL,
	"recipient" text NOT NULL,
	"amount" numeric(18, 9) NOT NULL,
	"signature" text NOT NULL,
	"wire_transaction" text NOT NULL,
	"last_valid_block_height" bigint NOT NULL,
	"status" text DEFAULT 'sending' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_transfers_purpose_valid" CHECK (purpose in ('claim', 'refund')),
	CONSTRAINT "payout_transfers_status_valid" CHECK (status in ('sending', 'confirmed', 'failed', 'expired')),
	CONSTRAINT "payout_transfers_amount_positive" CHECK ("payout_transfers"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD CONSTRAINT "payout_transfers_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD CONSTRAINT "payout_transfers_contribution_id_pool_contributions_id_fk" FOREIGN KEY ("contribution_id") REFERENCES "public"."pool_contributions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_transfers_signature_unique" ON "payout_transfers" USING btree ("signature");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_transfers_one_live_per_claim" ON "payout_transfers" USING btree ("claim_id") WHERE status in ('sending', 'confirmed');--> statement-breakpoint
CREATE UNIQUE INDEX "payout_transfers_one_live_per_contribution" ON "payout_transfers" USING btree ("contribution_id") WHERE status in ('sending', 'confirmed');--> statement-breakpoint
CREATE INDEX "payout_transfers_status_idx" ON "payout_transfers" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_one_per_dare_type" ON "claims" USING btree ("dare_id","claim_type");