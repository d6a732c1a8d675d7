import { describe, expect, it } from "vitest";
import type { Message } from "../messages.js";
import { artifactTrail } from "./artifact-trail.js";
import { assistant, result, use, user } from "./test-support/transcripts.js";

// The artifact trail on the call shapes real agents use (bench/corpus: Claude Code, Codex CLI,
// Gemini CLI, Cline): each names a changed file its own way.
const call = (id: string, name: string, input: unknown, failed = false): Message[] => [
  assistant("", use(id, name, input)),
  user(result(id, "ok", failed)),
];

describe("artifactTrail", () => {
  it("reads write and edit tools by their path keys, and skips reads and failed calls", () => {
    const messages = [
      ...call("a", "write_file", { path: "src/a.ts", content: "x" }),
      ...call("b", "Edit", { file_path: "src/b.ts", old_string: "x", new_string: "y" }),
      ...call("c", "write_to_file", { absolutePath: "/work/c.cs", content: "x" }), // Cline
      ...call("d", "replace", { file_path: "src/d.kt", old_string: "a", new_string: "b" }), // Gemini CLI
      ...call("e", "read_file", { path: "src/e.ts" }),
      ...call("f", "write_file", { path: "src/f.ts", content: "x" }, true),
    ];
    expect(artifactTrail(messages)).toEqual(["src/a.ts", "src/b.ts", "/work/c.cs", "src/d.kt"]);
  });

  it("reads an apply_patch envelope whatever tool carries it, with real or escaped newlines", () => {
    const envelope =
      "*** Begin Patch\n*** Add File: Cargo.toml\n+[workspace]\n*** Update File: src/engine.rs\n@@\n-a\n+b\n*** Update File: src/old.rs\n*** Move to: src/new.rs\n*** End Patch";
    const messages = [
      ...call("a", "shell", { command: ["apply_patch", envelope] }), // Codex CLI's shell
      ...call("b", "exec", {
        input: `const patch = ${JSON.stringify("*** Begin Patch\n*** Delete File: src/gone.rs\n*** End Patch")}; await tools.apply_patch(patch);`,
      }), // Codex code mode
    ];
    expect(artifactTrail(messages)).toEqual(["Cargo.toml", "src/engine.rs", "src/old.rs", "src/new.rs", "src/gone.rs"]);
  });

  it("reads a unified diff's target files", () => {
    expect(artifactTrail(call("a", "apply_diff", { diff: "--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b" }))).toEqual(["src/x.ts"]);
  });
});
