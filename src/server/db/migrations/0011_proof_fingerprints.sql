ALTER TABLE "dare_submissions" ADD COLUMN "proof_hash" text;--> statement-breakpoint
ALTER TABLE "dare_submissions" ADD COLUMN "proof_matches" boolean;--> statement-breakpoint
ALTER TABLE "dare_submissions" ADD COLUMN "proof_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prepared_transactions" ADD COLUMN "proof_hash" text;--> statement-breakpoint
ALTER TABLE "video_uploads" ADD COLUMN "sha256" text;