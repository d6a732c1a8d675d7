-- Search over a message's strings that never fails the insert. A tsvector holds at most 1 MB: a
-- message with more than ~27k distinct words (300 parallel file reads in one turn) used to fail its
-- insert, and the session with it. Now the longest prefix that fits is indexed (halving until it
-- does); the message is always kept whole. The strings are taken in jsonb order, and the escapes of
-- stored-value.ts (U+FFFF 0, U+FFFF U+FFFF, U+FFFF u + 4 hex digits) become spaces, so the words on
-- either side of a NUL or a lone surrogate stay words.
CREATE FUNCTION hatloop_search_vector(content jsonb) RETURNS tsvector LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  words text;
  size integer;
BEGIN
  SELECT coalesce(string_agg(regexp_replace(item #>> '{}', U&'\FFFF(0|\FFFF|u[0-9a-f]{4})', ' ', 'g'), E'\n'), '')
    INTO words
    FROM jsonb_path_query(content, 'strict $.** ? (@.type() == "string")') AS item;
  size := length(words);
  LOOP
    BEGIN
      RETURN to_tsvector('english'::regconfig, left(words, size));
    EXCEPTION WHEN program_limit_exceeded THEN
      size := size / 2;
    END;
  END LOOP;
END;
$$;--> statement-breakpoint
ALTER TABLE "messages" drop column "search";--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (hatloop_search_vector(content)) STORED;--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search");
