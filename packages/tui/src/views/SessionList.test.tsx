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
    expect(lines[1]).toMatch(/^ID +STATUS +HAT +ITER +COST\/BUDGET +UPDATED +WORKER +TASK/);
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
    expect(text().split("\n")[1]).toMatch(/UPDATED +TASK/);
    app.unmount();
  });

  it("shows a waiting session first with its question under it, and the cost panel of the selected one on $", async () => {
    const waiting: ListRow = {
      ...row("dddddddd", "waiting", "asks"),
      cost: "$1.50/$4.00",
      question: "Which database should I use?",
      costs: {
        costUsd: 1.5,
        maxCostUsd: 4,
        runtimeMs: 30 * 60_000,
        iteration: 3,
        usage: { inputTokens: 1_000, outputTokens: 2_000, cacheReadTokens: 6_000, cacheWriteTokens: 1_000 },
      },
    };
    const { app, text } = frame(<SessionList rows={[row("cccccccc", "completed", "ran here"), waiting]} onChoose={() => {}} size={size} />);
    const lines = text().split("\n");
    expect(lines[0]).toMatch(/2 of 2 sessions · 1 waiting/);
    expect(lines[2]).toMatch(/^dddddddd +\? waiting .* \$1\.50\/\$4\.00 +now +asks/);
    expect(lines[3]).toMatch(/^ +\? Which database should I use\?/);
    app.stdin.write("$");
    await settle(() => text().includes("cost of session dddddddd"));
    const panel = text();
    expect(panel).toMatch(/spent +\$1\.50 of \$4\.00 \(38%\)/);
    expect(panel).toMatch(/burn rate +\$3\.00\/h over 30m00s of running · \$0\.50 an iteration \(3\)/);
    expect(panel).toMatch(/projection +the \$4\.00 budget is reached after 50m00s more running/);
    expect(panel).toMatch(/cache read +6\.0k +60%/);
    expect(panel).toMatch(/cache write +1\.0k +10%/);
    app.unmount();
  });
});
