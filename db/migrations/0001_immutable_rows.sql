-- Messages are an append-only log and checkpoints are immutable: the database refuses updates,
-- so no code path (ours or a user's script) can rewrite history. Deletes stay possible for
-- checkpoint retention and for removing a whole session.
CREATE FUNCTION hatloop_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'rows of % are immutable', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER messages_immutable BEFORE UPDATE ON messages FOR EACH ROW EXECUTE FUNCTION hatloop_refuse_update();--> statement-breakpoint
CREATE TRIGGER checkpoints_immutable BEFORE UPDATE ON checkpoints FOR EACH ROW EXECUTE FUNCTION hatloop_refuse_update();
