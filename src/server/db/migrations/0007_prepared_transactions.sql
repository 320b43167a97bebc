CREATE TABLE "prepared_transactions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "prepared_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"dare_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"wallet" text NOT NULL,
	"vault" text NOT NULL,
	"message_hash" text NOT NULL,
	"wire_transaction" text NOT NULL,
	"last_valid_block_height" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prepared_transactions_kind_valid" CHECK (kind in ('enter', 'refund'))
);
--> statement-breakpoint
ALTER TABLE "prepared_transactions" ADD CONSTRAINT "prepared_transactions_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepared_transactions" ADD CONSTRAINT "prepared_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "prepared_transactions_one_per_wallet" ON "prepared_transactions" USING btree ("kind","vault","wallet");--> statement-breakpoint
CREATE INDEX "prepared_transactions_dare_idx" ON "prepared_transactions" USING btree ("dare_id");