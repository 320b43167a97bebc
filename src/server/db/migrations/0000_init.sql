CREATE TABLE "auth_sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auth_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bonding_curve_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bonding_curve_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dare_id" integer NOT NULL,
	"token_mint" text,
	"token_name" text,
	"token_symbol" text,
	"token_description" text,
	"total_supply" numeric(30, 0) DEFAULT '1000000000' NOT NULL,
	"available_supply" numeric(30, 0) DEFAULT '800000000' NOT NULL,
	"current_token_supply" numeric(30, 0) DEFAULT '800000000' NOT NULL,
	"virtual_sol_reserve" numeric(18, 9) DEFAULT '30' NOT NULL,
	"current_sol_reserve" numeric(18, 9) DEFAULT '0' NOT NULL,
	"graduation_threshold" numeric(18, 9) DEFAULT '85' NOT NULL,
	"current_price" numeric(18, 9) DEFAULT '0' NOT NULL,
	"is_graduated" boolean DEFAULT false NOT NULL,
	"raydium_pool_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dare_id" integer,
	"user_id" integer,
	"message" text NOT NULL,
	"message_type" text DEFAULT 'user' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_messages_type_valid" CHECK (message_type in ('user', 'system')),
	CONSTRAINT "chat_messages_length" CHECK (char_length("chat_messages"."message") between 1 and 500)
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "claims_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"amount" numeric(18, 9) NOT NULL,
	"claim_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"transaction_hash" text,
	"failure_reason" text,
	"dare_id" integer,
	"submission_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "claims_status_valid" CHECK (status in ('pending', 'processing', 'paid', 'failed')),
	CONSTRAINT "claims_type_valid" CHECK (claim_type in ('dare_winner', 'major_admin', 'major_community')),
	CONSTRAINT "claims_amount_positive" CHECK ("claims"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "dare_submissions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dare_submissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dare_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"video_url" text NOT NULL,
	"thumbnail_url" text,
	"description" text,
	"votes" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dare_submissions_status_valid" CHECK (status in ('pending', 'approved', 'rejected', 'winner')),
	CONSTRAINT "dare_submissions_votes_non_negative" CHECK ("dare_submissions"."votes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "dare_wallets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dare_wallets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dare_id" integer,
	"public_key" text NOT NULL,
	"private_key" text,
	"derivation_index" integer NOT NULL,
	"reserved_by" integer,
	"balance" numeric(18, 9) DEFAULT '0' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dare_wallets_status_valid" CHECK (status in ('reserved', 'active', 'expired', 'closed')),
	CONSTRAINT "dare_wallets_balance_non_negative" CHECK ("dare_wallets"."balance" >= 0),
	CONSTRAINT "dare_wallets_index_non_negative" CHECK ("dare_wallets"."derivation_index" >= 0),
	CONSTRAINT "dare_wallets_no_raw_key" CHECK ("dare_wallets"."private_key" is null or "dare_wallets"."private_key" like 'm/%')
);
--> statement-breakpoint
CREATE TABLE "dares" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dares_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"description" text NOT NULL,
	"creator_id" integer NOT NULL,
	"stake_amount" numeric(18, 9) NOT NULL,
	"total_pool" numeric(18, 9) DEFAULT '0' NOT NULL,
	"difficulty" text DEFAULT 'medium' NOT NULL,
	"category" text DEFAULT 'creative' NOT NULL,
	"deadline" timestamp with time zone,
	"max_participants" integer DEFAULT 10 NOT NULL,
	"is_public" boolean DEFAULT true NOT NULL,
	"is_major" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"escrow_wallet" text,
	"transaction_signature" text,
	"network" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"image_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dares_status_valid" CHECK (status in ('active', 'cancelled', 'completed')),
	CONSTRAINT "dares_difficulty_valid" CHECK (difficulty in ('easy', 'medium', 'hard', 'extreme')),
	CONSTRAINT "dares_category_valid" CHECK (is_major or category in ('creative', 'physical', 'social', 'skill', 'adventure')),
	CONSTRAINT "dares_stake_non_negative" CHECK ("dares"."stake_amount" >= 0),
	CONSTRAINT "dares_total_pool_non_negative" CHECK ("dares"."total_pool" >= 0),
	CONSTRAINT "dares_max_participants_positive" CHECK ("dares"."max_participants" >= 1)
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"escrow_wallet" text NOT NULL,
	"counterparty" text NOT NULL,
	"direction" integer NOT NULL,
	"amount" numeric(18, 9) NOT NULL,
	"signature" text NOT NULL,
	"dare_id" integer,
	"user_id" integer,
	"claim_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_valid" CHECK (kind in ('stake', 'contribution', 'payout', 'refund', 'fee')),
	CONSTRAINT "ledger_entries_direction_valid" CHECK ("ledger_entries"."direction" in (-1, 1)),
	CONSTRAINT "ledger_entries_amount_positive" CHECK ("ledger_entries"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "payment_intents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_intents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"purpose" text NOT NULL,
	"user_id" integer NOT NULL,
	"dare_id" integer,
	"from_wallet" text NOT NULL,
	"escrow_wallet" text NOT NULL,
	"amount" numeric(18, 9) NOT NULL,
	"reference" text NOT NULL,
	"min_slot" bigint NOT NULL,
	"signature" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_intents_purpose_valid" CHECK (purpose in ('stake', 'contribution')),
	CONSTRAINT "payment_intents_amount_positive" CHECK ("payment_intents"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "pool_contributions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pool_contributions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dare_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"wallet_address" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(18, 9) NOT NULL,
	"transaction_signature" text NOT NULL,
	"refund_signature" text,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pool_contributions_kind_valid" CHECK (kind in ('stake', 'contribution')),
	CONSTRAINT "pool_contributions_amount_positive" CHECK ("pool_contributions"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "registration_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"wallet_address" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"wallet_address" text NOT NULL,
	"input" jsonb NOT NULL,
	"message" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "submission_votes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "submission_votes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"submission_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"dare_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "system_settings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "system_settings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"setting_key" text NOT NULL,
	"setting_value" text NOT NULL,
	"description" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_launches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "token_launches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dare_id" integer,
	"token_mint" text,
	"pool_address" text,
	"current_price" numeric(18, 9) DEFAULT '0' NOT NULL,
	"total_supply" numeric(30, 0) DEFAULT '0' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"password" text NOT NULL,
	"wallet_address" text,
	"is_admin" boolean DEFAULT false NOT NULL,
	"total_earnings" numeric(18, 9) DEFAULT '0' NOT NULL,
	"dare_wins" integer DEFAULT 0 NOT NULL,
	"reputation" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_total_earnings_non_negative" CHECK ("users"."total_earnings" >= 0),
	CONSTRAINT "users_dare_wins_non_negative" CHECK ("users"."dare_wins" >= 0),
	CONSTRAINT "users_username_length" CHECK (char_length("users"."username") between 3 and 32)
);
--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonding_curve_tokens" ADD CONSTRAINT "bonding_curve_tokens_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_submission_id_dare_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."dare_submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dare_submissions" ADD CONSTRAINT "dare_submissions_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dare_submissions" ADD CONSTRAINT "dare_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dare_wallets" ADD CONSTRAINT "dare_wallets_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dare_wallets" ADD CONSTRAINT "dare_wallets_reserved_by_users_id_fk" FOREIGN KEY ("reserved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dares" ADD CONSTRAINT "dares_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_contributions" ADD CONSTRAINT "pool_contributions_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_contributions" ADD CONSTRAINT "pool_contributions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_votes" ADD CONSTRAINT "submission_votes_submission_id_dare_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."dare_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_votes" ADD CONSTRAINT "submission_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_votes" ADD CONSTRAINT "submission_votes_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_launches" ADD CONSTRAINT "token_launches_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auth_sessions_token_hash_unique" ON "auth_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "auth_sessions_user_idx" ON "auth_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bonding_curve_tokens_dare_unique" ON "bonding_curve_tokens" USING btree ("dare_id");--> statement-breakpoint
CREATE INDEX "chat_messages_room_idx" ON "chat_messages" USING btree ("dare_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_transaction_hash_unique" ON "claims" USING btree ("transaction_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "claims_one_per_submission_type" ON "claims" USING btree ("submission_id","claim_type");--> statement-breakpoint
CREATE INDEX "claims_user_idx" ON "claims" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dare_submissions_one_per_user" ON "dare_submissions" USING btree ("dare_id","user_id");--> statement-breakpoint
CREATE INDEX "dare_submissions_status_idx" ON "dare_submissions" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "dare_wallets_public_key_unique" ON "dare_wallets" USING btree ("public_key");--> statement-breakpoint
CREATE UNIQUE INDEX "dare_wallets_derivation_index_unique" ON "dare_wallets" USING btree ("derivation_index");--> statement-breakpoint
CREATE UNIQUE INDEX "dare_wallets_dare_unique" ON "dare_wallets" USING btree ("dare_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dares_transaction_signature_unique" ON "dares" USING btree ("transaction_signature");--> statement-breakpoint
CREATE UNIQUE INDEX "dares_escrow_wallet_unique" ON "dares" USING btree ("escrow_wallet");--> statement-breakpoint
CREATE INDEX "dares_status_created_idx" ON "dares" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "dares_creator_idx" ON "dares" USING btree ("creator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_movement_unique" ON "ledger_entries" USING btree ("signature","escrow_wallet","counterparty","kind");--> statement-breakpoint
CREATE INDEX "ledger_entries_escrow_idx" ON "ledger_entries" USING btree ("escrow_wallet");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_reference_unique" ON "payment_intents" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_signature_unique" ON "payment_intents" USING btree ("signature");--> statement-breakpoint
CREATE UNIQUE INDEX "pool_contributions_signature_unique" ON "pool_contributions" USING btree ("transaction_signature");--> statement-breakpoint
CREATE INDEX "pool_contributions_dare_idx" ON "pool_contributions" USING btree ("dare_id");--> statement-breakpoint
CREATE INDEX "registration_tokens_expires_idx" ON "registration_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sign_in_nonces_expires_idx" ON "sign_in_nonces" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "submission_votes_one_per_user" ON "submission_votes" USING btree ("submission_id","user_id");--> statement-breakpoint
CREATE INDEX "submission_votes_user_dare_idx" ON "submission_votes" USING btree ("user_id","dare_id");--> statement-breakpoint
CREATE UNIQUE INDEX "system_settings_key_unique" ON "system_settings" USING btree ("setting_key");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_unique" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_wallet_address_unique" ON "users" USING btree ("wallet_address");