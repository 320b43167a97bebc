CREATE TABLE "payout_proposals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_proposals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dare_id" integer NOT NULL,
	"vault" text NOT NULL,
	"winners" jsonb NOT NULL,
	"status" text DEFAULT 'collecting' NOT NULL,
	"wire_transaction" text NOT NULL,
	"message_hash" text NOT NULL,
	"last_valid_block_height" bigint NOT NULL,
	"signers" text[] NOT NULL,
	"signed_by" text[] DEFAULT '{}'::text[] NOT NULL,
	"signatures_needed" integer NOT NULL,
	"signature" text,
	"executes_at" timestamp with time zone NOT NULL,
	"veto_count" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"proposed_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_proposals_status_valid" CHECK (status in ('collecting', 'proposed', 'vetoed', 'executed'))
);
--> statement-breakpoint
ALTER TABLE "payout_proposals" ADD CONSTRAINT "payout_proposals_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_proposals" ADD CONSTRAINT "payout_proposals_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_proposals_one_live_per_dare" ON "payout_proposals" USING btree ("dare_id") WHERE status in ('collecting', 'proposed');--> statement-breakpoint
CREATE UNIQUE INDEX "payout_proposals_signature_unique" ON "payout_proposals" USING btree ("signature");--> statement-breakpoint
CREATE INDEX "payout_proposals_status_idx" ON "payout_proposals" USING btree ("status","executes_at");