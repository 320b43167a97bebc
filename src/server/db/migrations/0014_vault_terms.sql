ALTER TABLE "dare_wallets" ADD COLUMN "vault_terms" jsonb;--> statement-breakpoint
ALTER TABLE "dare_wallets" ADD COLUMN "foreign_term" text;