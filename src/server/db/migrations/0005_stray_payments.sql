CREATE TABLE "stray_payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stray_payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"escrow_wallet" text NOT NULL,
	"signature" text NOT NULL,
	"from_wallet" text NOT NULL,
	"amount" numeric(18, 9) NOT NULL,
	"found_at" timestamp with time zone NOT NULL,
	"refunded_at" timestamp with time zone,
	"refund_signature" text,
	CONSTRAINT "stray_payments_amount_positive" CHECK ("stray_payments"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "payment_intents" DROP CONSTRAINT "payment_intents_used_for_valid";--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD COLUMN "stray_payment_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "stray_payments_movement_unique" ON "stray_payments" USING btree ("signature","escrow_wallet","from_wallet");--> statement-breakpoint
CREATE INDEX "stray_payments_escrow_idx" ON "stray_payments" USING btree ("escrow_wallet","refunded_at");--> statement-breakpoint
ALTER TABLE "payout_transfers" ADD CONSTRAINT "payout_transfers_stray_payment_id_stray_payments_id_fk" FOREIGN KEY ("stray_payment_id") REFERENCES "public"."stray_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_transfers_one_live_per_stray_payment" ON "payout_transfers" USING btree ("stray_payment_id") WHERE status in ('sending', 'confirmed');--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_used_for_valid" CHECK (used_for is null or used_for in ('credit', 'refund', 'lapsed'));