ALTER TABLE "checklist_items" ADD COLUMN "lease_epoch" integer;--> statement-breakpoint
ALTER TABLE "checkpoints" ADD COLUMN "lease_epoch" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "lease_epoch" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "lease_epoch" integer;--> statement-breakpoint
-- Fencing: a row written by a run carries the lease epoch the run holds; if the session's lease has
-- moved on (another runner took it over), the write is refused, so a stale runner (a partitioned
-- machine, a process that was paused too long) can add nothing. FOR SHARE orders the check against
-- a concurrent takeover: one of the two waits for the other.
CREATE FUNCTION hatloop_check_lease() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  current_epoch integer;
BEGIN
  IF NEW.lease_epoch IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT lease_epoch INTO current_epoch FROM sessions WHERE id = NEW.session_id FOR SHARE;
  IF current_epoch IS DISTINCT FROM NEW.lease_epoch THEN
    RAISE EXCEPTION 'the lease of session % has moved on (epoch % is held, this write has %)', NEW.session_id, current_epoch, NEW.lease_epoch USING ERRCODE = 'HL001';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER messages_fence BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION hatloop_check_lease();--> statement-breakpoint
CREATE TRIGGER checkpoints_fence BEFORE INSERT ON checkpoints FOR EACH ROW EXECUTE FUNCTION hatloop_check_lease();--> statement-breakpoint
CREATE TRIGGER events_fence BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION hatloop_check_lease();--> statement-breakpoint
CREATE TRIGGER checklist_items_fence BEFORE INSERT OR UPDATE ON checklist_items FOR EACH ROW EXECUTE FUNCTION hatloop_check_lease();
