import { describe, expect, it } from "vitest";
import { frame, settle } from "../test-support/render-view.js";
import { SessionList, type ListRow } from "./SessionList.js";

// `hatloop ls` on a terminal shows fleet sessions as `ls --plain` does: a queued session as queued,
// and a WORKER column (the worker that runs a session, or ran it last) when the list holds any.

const row = (id: string, status: string, title: string, worker?: string): ListRow => ({
  id: id.padEnd(36, "0"),
  status,
  hat: "editor",
  iteration: "0",
  cost: "$0.00",
  updated: "now",
  title,
  live: false,
  ...(worker === undefined ? {} : { worker }),
});

const size = { columns: 120, rows: 12 };

describe("the session list", () => {
  it("has a WORKER column with each fleet session's worker, and filters queued sessions", async () => {
    const rows = [row("aaaaaaaa", "queued", "waits for a worker", "-"), row("bbbbbbbb", "running", "runs on one", "builder-2")];
    const { app, text } = frame(<SessionList rows={rows} onChoose={() => {}} size={size} />);
    const lines = text().split("\n");
    expect(lines[0]).toMatch(/^ID +STATUS +HAT +ITER +COST +UPDATED +WORKER +TASK/);
    expect(lines.find((l) => l.startsWith("aaaaaaaa"))).toMatch(/ queued .* - +waits for a worker/);
    expect(lines.find((l) => l.startsWith("bbbbbbbb"))).toMatch(/running .* builder-2 +runs on one/);
    // f: all, running, queued.
    app.stdin.write("f");
    await settle(() => text().includes("filter: running"));
    app.stdin.write("f");
    await settle(() => text().includes("filter: waiting"));
    app.stdin.write("f");
    await settle(() => text().includes("filter: queued"));
    expect(text()).toContain("waits for a worker");
    expect(text()).not.toContain("runs on one");
    app.unmount();
  });

  it("has no WORKER column when no session is the fleet's", () => {
    const { app, text } = frame(<SessionList rows={[row("cccccccc", "completed", "ran here")]} onChoose={() => {}} size={size} />);
    expect(text().split("\n")[0]).toMatch(/UPDATED +TASK/);
    app.unmount();
  });
});
