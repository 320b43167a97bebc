ALTER TABLE "dare_wallets" ALTER COLUMN "derivation_index" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "dare_wallets" ADD COLUMN "vault_seed" text;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "program_instruction" text;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "vault_deadline" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "vault_kind" text;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "deadline_requested" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "dare_wallets_vault_seed_unique" ON "dare_wallets" USING btree ("vault_seed");--> statement-breakpoint
ALTER TABLE "dare_wallets" ADD CONSTRAINT "dare_wallets_vault_seed_hex" CHECK ("dare_wallets"."vault_seed" is null or "dare_wallets"."vault_seed" ~ '^[0-9a-f]{64}$');--> statement-breakpoint
ALTER TABLE "dare_wallets" ADD CONSTRAINT "dare_wallets_vault_or_key" CHECK ("dare_wallets"."vault_seed" is not null or "dare_wallets"."derivation_index" is not null);--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_program_instruction_valid" CHECK (program_instruction is null or program_instruction in ('create_vault', 'deposit'));--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_vault_kind_valid" CHECK (vault_kind is null or vault_kind in ('community', 'major'));--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_create_vault_terms" CHECK (program_instruction is distinct from 'create_vault' or (vault_deadline is not null and vault_kind is not null));--> statement-breakpoint
DROP SEQUENCE "public"."escrow_derivation_index_seq";