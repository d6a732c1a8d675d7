CREATE TYPE "public"."checklist_status" AS ENUM('pending', 'in_progress', 'done', 'failed', 'skipped');--> statement-breakpoint
CREATE TYPE "public"."checkpoint_reason" AS ENUM('start', 'interval', 'warn-threshold', 'compaction', 'hat-change', 'budget', 'failure', 'pause', 'completion');--> statement-breakpoint
CREATE TYPE "public"."memory_status" AS ENUM('active', 'superseded');--> statement-breakpoint
CREATE TYPE "public"."session_status" AS ENUM('pending', 'running', 'paused', 'completed', 'failed', 'stopped');--> statement-breakpoint
CREATE TABLE "checklist_items" (
	"session_id" text NOT NULL,
	"item_id" text NOT NULL,
	"position" integer NOT NULL,
	"description" text NOT NULL,
	"status" "checklist_status" DEFAULT 'pending' NOT NULL,
	"reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checklist_items_session_id_item_id_pk" PRIMARY KEY("session_id","item_id")
);
--> statement-breakpoint
CREATE TABLE "checkpoints" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "checkpoints_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"session_id" text NOT NULL,
	"seq" integer NOT NULL,
	"reason" "checkpoint_reason" NOT NULL,
	"iteration" integer NOT NULL,
	"hat" text NOT NULL,
	"scratchpad" text NOT NULL,
	"context" jsonb NOT NULL,
	"context_tokens" integer NOT NULL,
	"summary" text,
	"last_error" text,
	"failed_at" text,
	"recovery_hint" text,
	"usage" jsonb NOT NULL,
	"state" jsonb NOT NULL,
	"handoff" jsonb,
	"git_commit" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"session_id" text NOT NULL,
	"iteration" integer NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "memories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"session_id" text,
	"repo_path" text NOT NULL,
	"kind" text NOT NULL,
	"type" text NOT NULL,
	"key" text,
	"content" text NOT NULL,
	"confidence" double precision DEFAULT 0.6 NOT NULL,
	"source" text NOT NULL,
	"status" "memory_status" DEFAULT 'active' NOT NULL,
	"superseded_by" integer,
	"iteration" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"session_id" text NOT NULL,
	"seq" integer NOT NULL,
	"iteration" integer NOT NULL,
	"hat" text NOT NULL,
	"role" text NOT NULL,
	"kind" text DEFAULT 'conversation' NOT NULL,
	"content" jsonb NOT NULL,
	"token_estimate" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (jsonb_to_tsvector('english'::regconfig, content, '["string"]'::jsonb)) STORED
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"task" text NOT NULL,
	"title" text NOT NULL,
	"repo_path" text NOT NULL,
	"worktree_path" text NOT NULL,
	"branch" text NOT NULL,
	"base_commit" text NOT NULL,
	"head_commit" text,
	"in_place" integer DEFAULT 0 NOT NULL,
	"hat" text NOT NULL,
	"status" "session_status" DEFAULT 'pending' NOT NULL,
	"stop_reason" text,
	"last_error" text,
	"model" text NOT NULL,
	"iteration" integer DEFAULT 0 NOT NULL,
	"max_iterations" integer,
	"max_tokens" integer,
	"max_cost_usd" double precision,
	"max_runtime_ms" integer,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"cache_read_tokens" integer DEFAULT 0 NOT NULL,
	"cache_write_tokens" integer DEFAULT 0 NOT NULL,
	"cost_usd" double precision DEFAULT 0 NOT NULL,
	"runtime_ms" integer DEFAULT 0 NOT NULL,
	"context_tokens" integer DEFAULT 0 NOT NULL,
	"context_window" integer DEFAULT 200000 NOT NULL,
	"scratchpad" text DEFAULT '' NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"gate_baseline" jsonb,
	"pid" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "checklist_items" ADD CONSTRAINT "checklist_items_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkpoints" ADD CONSTRAINT "checkpoints_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkpoints_session_seq_uq" ON "checkpoints" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "events_session_id_idx" ON "events" USING btree ("session_id","id");--> statement-breakpoint
CREATE INDEX "memories_repo_idx" ON "memories" USING btree ("repo_path","status");--> statement-breakpoint
CREATE INDEX "memories_key_idx" ON "memories" USING btree ("repo_path","key");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_session_seq_uq" ON "messages" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search");--> statement-breakpoint
CREATE INDEX "sessions_created_idx" ON "sessions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sessions_status_idx" ON "sessions" USING btree ("status");