CREATE TABLE "workers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"concurrency" integer NOT NULL,
	"running" integer DEFAULT 0 NOT NULL,
	"takeovers" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "fleet_sessions" ADD COLUMN "priority" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "fleet_sessions" ADD COLUMN "base" text;--> statement-breakpoint
ALTER TABLE "fleet_sessions" ADD COLUMN "schedule" text;--> statement-breakpoint
ALTER TABLE "fleet_sessions" ADD COLUMN "start_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "fleet_sessions" ADD COLUMN "start_error" text;--> statement-breakpoint
ALTER TABLE "fleet_sessions" ADD COLUMN "dead_lettered_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "workers_heartbeat_idx" ON "workers" USING btree ("heartbeat_at");--> statement-breakpoint
CREATE INDEX "workers_name_idx" ON "workers" USING btree ("name");--> statement-breakpoint
CREATE INDEX "fleet_sessions_worker_idx" ON "fleet_sessions" USING btree ("worker");--> statement-breakpoint
CREATE INDEX "fleet_sessions_repo_idx" ON "fleet_sessions" USING btree ("repo_url");--> statement-breakpoint
CREATE INDEX "fleet_sessions_schedule_idx" ON "fleet_sessions" USING btree ("schedule","created_at");--> statement-breakpoint
CREATE INDEX "fleet_sessions_dead_idx" ON "fleet_sessions" USING btree ("dead_lettered_at");--> statement-breakpoint
CREATE INDEX "sessions_repo_idx" ON "sessions" USING btree ("repo_path","created_at");