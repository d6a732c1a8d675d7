import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { createTuiStore } from "../state/store.js";
import { initialState } from "../state/initial.js";
import { event, NOW, snapshot } from "../test-support/fixtures.js";
import { SessionView } from "./SessionView.js";

// The TUI's own styling is ours; what it shows of the session (task, model text, tool calls and
// results, checklist, scratchpad, status reasons) must not drive the terminal: no 7-bit escape
// sequence and no 8-bit C1 control (U+009B is a one-character CSI) from content reaches the screen.

const INJECTIONS = ["\x1b]52;c;ZWNobyBwd25lZA==\x07", "\x1b]0;pwned\x07", "\x1b[2J", "\u009b2J", "\u009d0;title\u009c"];
const ALL = INJECTIONS.join(" ");

describe("content shown in the TUI", () => {
  it("carries no control sequence, 7-bit or 8-bit", () => {
    const store = createTuiStore(initialState(snapshot({ task: `fix ${ALL}`, scratchpad: `## Plan\n${ALL}` }), NOW), {
      frameMs: 0,
      now: () => NOW,
    });
    for (const e of [
      event("iteration.start", { hat: "creator" }, 1),
      event("model.text", { text: `thinking ${ALL}\nmore ${ALL}` }, 1),
      event("tool.call", { id: "t1", name: "run_command", summary: `echo ${ALL}` }, 1),
      event("tool.result", { id: "t1", name: "run_command", isError: true, chars: 10, durationMs: 1, preview: `failed ${ALL}` }, 1),
      event("checklist.set", { items: [{ id: "1", description: `item ${ALL}`, status: "pending" }] }, 1),
      event("signal.checklist", { id: "1", status: "failed", reason: `because ${ALL}`, known: true }, 1),
      event("session.status", { status: "stopped", reason: `health: ${ALL}` }, 1),
    ])
      store.push(e);
    const app = render(<SessionView store={store} onQuit={() => {}} size={{ columns: 200, rows: 50 }} now={NOW} />);
    const screen = app.lastFrame() ?? "";
    expect(screen).toContain("thinking");
    for (const injected of ["\x1b]52", "\x1b]0;", "\x1b[2J", "\u009b", "\u009d", "\u009c", "\x07"]) expect(screen).not.toContain(injected);
    app.unmount();
  });
});
