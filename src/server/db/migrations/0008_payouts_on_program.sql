DROP INDEX "claims_transaction_hash_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "claims_transaction_hash_type_unique" ON "claims" USING btree ("transaction_hash","claim_type");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_transfers_one_sending_per_escrow" ON "payout_transfers" USING btree ("escrow_wallet") WHERE status = 'sending';