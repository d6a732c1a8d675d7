CREATE TABLE "write_receipts" (
	"id" text PRIMARY KEY NOT NULL,
	"result" json,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "write_receipts_created_idx" ON "write_receipts" USING btree ("created_at");