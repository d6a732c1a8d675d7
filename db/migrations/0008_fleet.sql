CREATE TABLE "fleet_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"repo_url" text,
	"job_id" text,
	"worker" text,
	"stop_requested_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fleet_sessions" ADD CONSTRAINT "fleet_sessions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;