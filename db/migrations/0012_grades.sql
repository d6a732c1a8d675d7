CREATE TABLE "grades" (
	"session_id" text NOT NULL,
	"round" integer NOT NULL,
	"iteration" integer NOT NULL,
	"satisfied" boolean NOT NULL,
	"verdicts" jsonb NOT NULL,
	"model" text NOT NULL,
	"usage" jsonb NOT NULL,
	"cost_usd" double precision NOT NULL,
	"lease_epoch" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "grades_session_id_round_pk" PRIMARY KEY("session_id","round")
);
--> statement-breakpoint
ALTER TABLE "grades" ADD CONSTRAINT "grades_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Fenced like the other rows a run writes (0004): a runner whose lease moved on cannot add a grading.
CREATE TRIGGER grades_fence BEFORE INSERT ON grades FOR EACH ROW EXECUTE FUNCTION hatloop_check_lease();
