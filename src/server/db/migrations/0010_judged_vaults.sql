ALTER TABLE "chain_identity" ADD COLUMN "escrow_program_v2_id" text;--> statement-breakpoint
ALTER TABLE "dare_wallets" ADD COLUMN "program_version" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "dare_wallets" ADD CONSTRAINT "dare_wallets_program_version_valid" CHECK ("dare_wallets"."program_version" in (1, 2));