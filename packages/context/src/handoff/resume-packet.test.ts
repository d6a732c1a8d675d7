import { describe, expect, it } from "vitest";
import { MARKERS } from "../markers.js";
import { buildHandoff } from "./build.js";
import { expandPathTree } from "./path-tree.js";
import { estimatePacketTokens, renderResumePacket } from "./resume-packet.js";
import { TRIM_ORDER, type ListSection } from "./resume-sections.js";
import { hugeInputs, richInputs } from "./test-support/fixtures.js";

const TITLES: Record<ListSection, string> = {
  openItems: "Open items",
  decisions: "Key decisions",
  remaining: "Remaining",
  blockers: "Blockers",
};

/** The "Changed files" block's lines, and the packet without it (the part the token budget holds). */
function filesBlock(packet: string): { lines: string[]; rest: string } {
  const start = packet.indexOf("**Changed files**");
  if (start === -1) return { lines: [], rest: packet };
  const end = packet.indexOf("\n\n", start);
  const block = packet.slice(start, end === -1 ? undefined : end);
  return { lines: block.split("\n").slice(1), rest: packet.replace(block, "") };
}

/** How many items of a section the packet lists (0 when absent or "not listed"). */
function listed(packet: string, section: ListSection): number {
  const start = packet.indexOf(`**${TITLES[section]}**:\n`);
  if (start === -1) return 0;
  const body = packet.slice(start).split("\n\n")[0]!.split("\n").slice(1);
  return body.filter((line) => line.startsWith("- ") && !line.startsWith("- (+")).length;
}

describe("renderResumePacket", () => {
  const handoff = buildHandoff(richInputs());
  const packet = renderResumePacket(handoff, { storedMessages: 412 });

  it("starts with the resume marker and lands in the 600-800 token target on a rich handoff", () => {
    expect(packet.startsWith(MARKERS.resume)).toBe(true);
    const tokens = estimatePacketTokens(packet);
    expect(tokens).toBeGreaterThanOrEqual(600);
    expect(tokens).toBeLessThanOrEqual(800);
  });

  it("has task, branch and head, progress, remaining, blockers, decisions, files, next action, continuation and recall", () => {
    const expected = [
      "**Task**: Fix the flaky parser test",
      "`hatloop/fix-flaky-parser-test` @ `3f2a9c1e4b5d`",
      "**Progress**: 4/10 items completed",
      "- Add regression tests for trailing newlines, CRLF input and empty files",
      "**Blockers**:\n- Fix the lint warnings",
      "- Use a seeded random generator in the property tests",
      "**Next action**: patch the tokenizer to keep trailing newlines.",
      "**Continue with**: Continue working on: Fix the flaky parser test",
      "**Last error**: vitest exited with code 1",
      "call `recall` with keywords",
      "(412 messages)",
    ];
    for (const text of expected) expect(packet).toContain(text);
    const named = expandPathTree(filesBlock(packet).lines);
    for (const path of [...handoff.modified_files, ...handoff.created_files]) expect(named).toContain(path);
  });

  it("never includes raw summary blobs, thread text or injected text", () => {
    const withBlobs = {
      ...handoff,
      continuation_prompt: `${handoff.continuation_prompt}\n${MARKERS.summary}\n- Called read_file 40 times`,
      open_items: [`${MARKERS.recalled} source="x">old</recalled-context>`, ...handoff.open_items],
    };
    const text = renderResumePacket(withBlobs);
    for (const blob of [MARKERS.summary, MARKERS.recalled, "User Intent", handoff.thread.summary, "Called read_file 40 times"]) {
      expect(text).not.toContain(blob);
    }
    expect(text.split(MARKERS.resume)).toHaveLength(2);
  });

  it("stays under the hard cap on a huge handoff, all but its changed files: 200 of them, named in a directory tree", () => {
    const huge = renderResumePacket(buildHandoff(hugeInputs()));
    const { lines, rest } = filesBlock(huge);
    expect(estimatePacketTokens(rest)).toBeLessThanOrEqual(800);
    expect(huge.startsWith(MARKERS.resume)).toBe(true);
    for (const text of ["**Progress**: 100/300 items completed", "**Next action**:", "call `recall`"]) expect(huge).toContain(text);
    expect(huge).toContain("**Changed files** (2501):");
    expect(expandPathTree(lines.filter((l) => !l.startsWith("- (+")))).toHaveLength(200);
    expect(lines.at(-1)).toContain("(+2301 more: `hatloop handoff` lists them all)");
    // The tree costs far less than listing the same 200 paths one per line.
    const plain = expandPathTree(lines)
      .map((p) => `- ${p}`)
      .join("\n");
    expect(lines.join("\n").length).toBeLessThan(plain.length * 0.8);
    expect(listed(huge, "remaining")).toBeGreaterThan(0);
  });

  it("honours a custom cap, even a tiny one, for everything but the changed files", () => {
    for (const maxTokens of [500, 300, 120, 40]) {
      const text = renderResumePacket(buildHandoff(hugeInputs()), { maxTokens });
      expect(estimatePacketTokens(filesBlock(text).rest)).toBeLessThanOrEqual(maxTokens + 2);
      expect(text.startsWith(MARKERS.resume)).toBe(true);
    }
  });

  it("trims sections in priority order: open items, decisions, remaining, blockers (never the files)", () => {
    const full = Object.fromEntries(TRIM_ORDER.map((s) => [s, listed(packet, s)])) as Record<ListSection, number>;
    const firstTrimmedAt: Partial<Record<ListSection, number>> = {};
    for (let cap = 800; cap >= 100; cap -= 5) {
      const text = renderResumePacket(handoff, { maxTokens: cap });
      for (const section of TRIM_ORDER) {
        if (firstTrimmedAt[section] === undefined && listed(text, section) < full[section]) firstTrimmedAt[section] = cap;
      }
    }
    const expectedOrder: ListSection[] = ["openItems", "decisions", "remaining", "blockers"];
    const order = expectedOrder.map((s) => firstTrimmedAt[s] ?? 0);
    expect(order.every((cap) => cap > 0)).toBe(true);
    expect([...order].sort((a, b) => b - a)).toEqual(order);
    expect(new Set(order).size).toBe(order.length);
  });

  it("keeps the first (most depended-on) key decisions when shortening them, each whole", () => {
    const caps = Array.from({ length: 80 }, (_, i) => 800 - i * 5);
    const text = caps
      .map((maxTokens) => renderResumePacket(handoff, { maxTokens }))
      .find((t) => listed(t, "decisions") > 0 && listed(t, "decisions") < handoff.key_decisions.length);
    expect(text).toBeDefined();
    expect(text).toContain(`- ${handoff.key_decisions[0]}`);
    expect(text).not.toContain(`- ${handoff.key_decisions.at(-1)}`);
    expect(text).toMatch(/\(\+\d+ more\)/);
    const shown = text!.split("\n").filter((l) => handoff.key_decisions.some((d) => l === `- ${d}`));
    expect(shown.length).toBe(listed(text!, "decisions"));
  });

  it("is deterministic", () => {
    expect(renderResumePacket(buildHandoff(richInputs()), { storedMessages: 412 })).toBe(packet);
  });
});
