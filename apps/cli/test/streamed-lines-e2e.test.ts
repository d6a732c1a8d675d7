import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "@hatloop/model/testing";
import { runHatloop } from "./support/hatloop.js";
import { makeRepo } from "./support/repo.js";

// The real client streams text in deltas cut anywhere, unlike the scripted model's whole lines. A
// checklist signal acts as soon as its line is complete, while the rest of its delta (the start of
// the next line) is still to be shown: the line that follows must still print, and be stored, whole.

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const TEXT = "Checked.\nCHECKLIST_DONE:1\nCHECKLIST_DONE:2\nBoth done.\n";

interface StoredEvent {
  type: string;
  data: { text?: string };
}

describe("a streamed line split across deltas", () => {
  it("prints and stores whole lines when a checklist signal completes mid-delta", async () => {
    // 27 characters a delta: "Checked.\nCHECKLIST_DONE:1\nC", then "HECKLIST_DONE:2\nBoth done.\n".
    fake = await startFakeAnthropic({ replies: [{ content: TEXT, chunkSize: 27 }] });
    const { repo } = makeRepo();
    const home = mkdtempSync(join(tmpdir(), "hatloop-home-"));
    const env = { HATLOOP_HOME: home, HATLOOP_CONFIG: join(home, "none.json"), ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: fake.url };
    const run = await runHatloop(
      ["run", "tick two items", "--repo", repo, "--hat", "creator", "--model", "claude-haiku-4-5", "--max-iterations", "1", "--plain"],
      env,
    );
    expect(run.code, run.stderr).toBe(3);
    const shown = (out: string) => out.split("\n").filter((l) => l.startsWith("   | ") || l.startsWith("   checklist "));
    const expected = [
      "   | Checked.",
      "   | CHECKLIST_DONE:1",
      "   checklist 1 done (no such item)",
      "   | CHECKLIST_DONE:2",
      "   checklist 2 done (no such item)",
      "   | Both done.",
    ];
    expect(shown(run.stdout)).toEqual(expected);

    // Stored: the text between two other events is whole lines, and `logs` replays it the same way.
    const id = /session ([0-9a-f]{8})/.exec(run.stdout)![1]!;
    const logs = await runHatloop(["logs", id, "--json"], env);
    const events = logs.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as StoredEvent);
    const runs: string[] = [];
    let text: string | null = null;
    for (const event of events) {
      if (event.type === "model.text") text = (text ?? "") + event.data.text!;
      else if (text !== null) {
        runs.push(text);
        text = null;
      }
    }
    expect(runs.join("")).toBe(TEXT);
    for (const piece of runs) expect(piece, JSON.stringify(runs)).toMatch(/\n$/);
    expect(shown((await runHatloop(["logs", id], env)).stdout)).toEqual(expected);
  });
});
