CREATE TABLE "chain_identity" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"genesis_hash" text NOT NULL,
	"escrow_program_id" text NOT NULL,
	"fee_payer" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_identity_one_row" CHECK ("chain_identity"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "video_uploads" (
	"key" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"dare_id" integer NOT NULL,
	"size" bigint NOT NULL,
	"submission_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_uploads_size_non_negative" CHECK ("video_uploads"."size" >= 0)
);
--> statement-breakpoint
ALTER TABLE "video_uploads" ADD CONSTRAINT "video_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_uploads" ADD CONSTRAINT "video_uploads_dare_id_dares_id_fk" FOREIGN KEY ("dare_id") REFERENCES "public"."dares"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_uploads" ADD CONSTRAINT "video_uploads_submission_id_dare_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."dare_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "video_uploads_one_pending_per_dare" ON "video_uploads" USING btree ("user_id","dare_id") WHERE submission_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "video_uploads_submission_unique" ON "video_uploads" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "video_uploads_pending_idx" ON "video_uploads" USING btree ("created_at") WHERE submission_id is null;