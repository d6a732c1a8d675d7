ALTER TABLE "sessions" ADD COLUMN "lease_epoch" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "lease_holder" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "lease_expires_at" timestamp with time zone;