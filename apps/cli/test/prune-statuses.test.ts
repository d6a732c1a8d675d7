import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { buildProgram } from "../src/main.js";

// docs/running.md names the statuses `prune --status` accepts: all of them, none more.

it("docs/running.md lists the statuses prune accepts", () => {
  const prune = buildProgram().commands.find((c) => c.name() === "prune")!;
  const accepted = prune.options
    .find((o) => o.long === "--status")!
    .description.replace(/^comma-separated: /, "")
    .split(", ");
  const docs = readFileSync(new URL("../../../docs/running.md", import.meta.url), "utf8").replace(/\s+/g, " ");
  const listed = /`prune` needs `--status` \(as `ls` shows it: ([^)]+)\)/.exec(docs)?.[1]?.split(", ");
  expect(accepted).toContain("waiting");
  expect(listed?.sort()).toEqual(accepted.sort());
});
