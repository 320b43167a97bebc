CREATE SEQUENCE "public"."escrow_derivation_index_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE INDEX "dare_wallets_reserved_by_idx" ON "dare_wallets" USING btree ("reserved_by","status");--> statement-breakpoint
CREATE INDEX "payment_intents_user_escrow_idx" ON "payment_intents" USING btree ("user_id","escrow_wallet");