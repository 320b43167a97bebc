ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_valid";--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "message_hash" text;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "relay_signature" text;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "relayed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "used_for" text;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "refund_signature" text;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD COLUMN "intent_id" integer;--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD COLUMN "surplus" numeric(18, 9) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD CONSTRAINT "payout_transfers_intent_id_payment_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_intents_message_hash_idx" ON "payment_intents" USING btree ("message_hash");--> statement-breakpoint
CREATE INDEX "payment_intents_expires_idx" ON "payment_intents" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_transfers_one_live_per_intent" ON "payout_transfers" USING btree ("intent_id") WHERE status in ('sending', 'confirmed');--> statement-breakpoint
CREATE INDEX "payout_transfers_escrow_idx" ON "payout_transfers" USING btree ("escrow_wallet","status");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_valid" CHECK (kind in ('stake', 'contribution', 'payout', 'refund', 'fee', 'surplus'));--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_used_for_valid" CHECK (used_for is null or used_for in ('credit', 'refund'));--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD CONSTRAINT "payout_transfers_surplus_non_negative" CHECK ("payout_transfers"."surplus" >= 0);--> statement-breakpoint
-- Intents credited before this migration were booked when they were credited.
UPDATE "payment_intents" SET "used_for" = 'credit', "paid_at" = "used_at" WHERE "used_at" IS NOT NULL;
--> statement-breakpoint
-- Still append-only: the one change allowed is linking a stake booked before its dare existed
-- (money held for the payer) to the dare it then funded, once. Amounts, kinds, wallets and
-- signatures never change.
CREATE OR REPLACE FUNCTION ledger_entries_refuse_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND OLD.dare_id IS NULL AND NEW.dare_id IS NOT NULL
     AND (to_jsonb(NEW) - 'dare_id') = (to_jsonb(OLD) - 'dare_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'ledger_entries is append-only';
END;
$$ LANGUAGE plpgsql;
