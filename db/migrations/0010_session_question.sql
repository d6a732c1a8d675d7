ALTER TYPE "public"."checkpoint_reason" ADD VALUE 'question';--> statement-breakpoint
ALTER TYPE "public"."session_status" ADD VALUE 'waiting' BEFORE 'paused';--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "question" jsonb;