import { beforeAll, describe, expect, it } from "vitest";
import { resolveReply, sseEvents } from "../../src/testing/fake-events.js";
import { fetchRecordings, recordedStreams, type RecordedStream } from "./recordings.js";
import { fakeContentOf, readReference } from "./reference.js";
import { streamShape } from "./shape.js";

// Our fake Messages API only counts once it agrees with a recording: for every recorded stream of
// plain text, thinking and tool calls, the fake's stream for the same answer must follow the same grammar
// (event order, block and delta types) and carry the same fields in every event.

let streams: RecordedStream[] = [];
beforeAll(() => {
  fetchRecordings();
  // Answers of plain text and tool calls, straight from api.anthropic.com (its ids start msg_01; one
  // recording with another id format came through a gateway that reshapes usage).
  streams = recordedStreams().filter((s) => readReference(s.lines).otherBlocks.length === 0 && s.lines[0]!.includes('"id":"msg_01'));
});

describe("the fake Messages API", () => {
  it("streams what the real API streams, for every recorded text, thinking and tool answer", () => {
    expect(streams.length).toBeGreaterThanOrEqual(5);
    for (const stream of streams) {
      const recorded = stream.lines.map((l) => JSON.parse(l) as unknown);
      const ref = readReference(stream.lines);
      const content = fakeContentOf(ref);
      const reply = {
        content,
        stopReason: ref.stopReason ?? undefined,
        model: ref.model,
        usage: { input_tokens: ref.usage.inputTokens, output_tokens: ref.usage.outputTokens },
      };
      const request = { method: "POST", path: "/v1/messages", headers: {}, body: { model: ref.model, messages: [] } };
      const ours = sseEvents(reply, resolveReply(reply, request, 1)).map((e) => e.data);
      expect(withoutNewerFields(streamShape(ours), streamShape(recorded)), stream.name).toEqual(streamShape(recorded));
    }
  });
});

/** Fields the API added after some recordings were made: the fake sends them, an older recording lacks them. */
const ADDED_LATER = ["message.usage.inference_geo"];

function withoutNewerFields(
  ours: ReturnType<typeof streamShape>,
  recorded: ReturnType<typeof streamShape>,
): ReturnType<typeof streamShape> {
  const fields = Object.fromEntries(
    Object.entries(ours.fields).map(([kind, paths]) => [
      kind,
      paths.filter((p) => !ADDED_LATER.includes(p) || recorded.fields[kind]?.includes(p)),
    ]),
  );
  return { ...ours, fields };
}
