import { describe, expect, it } from "vitest";
import { said, type StoreUnderTest } from "./kit.js";

/** The store contract: messages and their search. */
export function describeMessagesContract(t: StoreUnderTest): void {
  describe("messages", () => {
    it("store a 1 MB message verbatim and stay append-only", async () => {
      const id = await t.session();
      const big = "x".repeat(1024 * 1024);
      const content = [
        {
          type: "tool_use" as const,
          id: "toolu_1",
          name: "read_file",
          input: { path: "src/auth.ts", nested: { "a b": [1, null, "ü€😀"] } },
        },
      ];
      await t.store.messages.append(id, [
        { seq: 1, iteration: 1, hat: "explorer", kind: "conversation", message: { role: "user", content: "start" }, tokenEstimate: 1 },
        { seq: 2, iteration: 1, hat: "explorer", kind: "conversation", message: { role: "assistant", content }, tokenEstimate: 20 },
        {
          seq: 3,
          iteration: 1,
          hat: "explorer",
          kind: "conversation",
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: big }] },
          tokenEstimate: 262_144,
        },
      ]);
      const all = await t.store.messages.range(id, 1, 3);
      expect(all.map((m) => m.seq)).toEqual([1, 2, 3]);
      expect(all[1]?.message.content).toEqual(content);
      expect(all[1]?.createdAt).toBeInstanceOf(Date);
      const result = all[2]?.message.content;
      expect(Array.isArray(result) && result[0]?.type === "tool_result" && result[0].content).toBe(big);
      expect(await t.store.messages.lastSeq(id)).toBe(3);
      expect(await t.store.messages.count(id)).toBe(3);
      expect((await t.store.messages.bySeqs(id, [3, 1])).map((m) => m.seq)).toEqual([1, 3]);
      expect(await t.store.messages.bySeqs(id, [])).toEqual([]);
      expect((await t.store.messages.range(id, 2, 9)).map((m) => m.seq)).toEqual([2, 3]);
      await expect(t.store.messages.append(id, [said(2, "dup")])).rejects.toThrow();
      expect(await t.store.messages.lastSeq("no-messages")).toBe(0);
    });

    it("write a batch whole or not at all: a duplicate anywhere in it refuses every message", async () => {
      const id = await t.session();
      await t.store.messages.append(id, [said(1, "one"), said(2, "two")]);
      await expect(t.store.messages.append(id, [said(3, "three"), said(2, "again")])).rejects.toThrow();
      await expect(t.store.messages.append(id, [said(4, "four"), said(4, "twice")])).rejects.toThrow();
      expect((await t.store.messages.range(id, 1, 10)).map((m) => m.seq)).toEqual([1, 2]);
    });

    it("give back from append the messages as stored: what reading them gives, secrets redacted", async () => {
      const id = await t.session();
      const key = "ghp_Zx8Kq2LmP9vR4tYw7nB3cD6fG1hJ5kL0abcd";
      const returned = await t.store.messages.append(id, [said(1, `push with ${key}`), said(2, "plain")]);
      const read = await t.store.messages.range(id, 1, 2);
      expect(returned).toEqual(read.map(({ createdAt: _createdAt, ...message }) => message));
      expect(returned[0]!.message.content).toEqual([{ type: "text", text: "push with [REDACTED:github-token]" }]);
      expect(await t.store.messages.append(id, [])).toEqual([]);
    });

    it("hand out copies", async () => {
      const id = await t.session();
      await t.store.messages.append(id, [said(1, "original")]);
      const [read] = await t.store.messages.range(id, 1, 1);
      (read!.message.content as Array<{ text: string }>)[0]!.text = "changed";
      expect((await t.store.messages.range(id, 1, 1))[0]!.message.content).toEqual([{ type: "text", text: "original" }]);
    });
  });

  describe("search", () => {
    it("finds words in text and tool content, stemmed, all words required", async () => {
      const id = await t.session();
      await t.store.messages.append(id, [
        {
          seq: 1,
          iteration: 1,
          hat: "creator",
          kind: "conversation",
          message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "run_command", input: { command: "npm test" } }] },
          tokenEstimate: 5,
        },
        {
          seq: 2,
          iteration: 1,
          hat: "creator",
          kind: "conversation",
          message: {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "t1", content: "FAIL src/auth.test.ts: expected token to be refreshed" }],
          },
          tokenEstimate: 5,
        },
        {
          seq: 3,
          iteration: 2,
          hat: "creator",
          kind: "conversation",
          message: { role: "assistant", content: "The tokens are refreshing fine now." },
          tokenEstimate: 5,
        },
      ]);
      expect((await t.store.messages.search(id, "refreshed token")).map((h) => h.seq).sort()).toEqual([2, 3]);
      expect((await t.store.messages.search(id, "refreshed", { excludeSeqs: [2] })).map((h) => h.seq)).toEqual([3]);
      expect((await t.store.messages.search(id, "npm")).map((h) => h.seq)).toEqual([1]);
      expect(await t.store.messages.search(id, "kubernetes")).toEqual([]);
      expect(await t.store.messages.search(id, "refreshed kubernetes")).toEqual([]);
      expect((await t.store.messages.search(id, "kubernetes OR npm")).map((h) => h.seq)).toEqual([1]);
      expect((await t.store.messages.search(id, "token -fine")).map((h) => h.seq)).toEqual([2]);
      expect(await t.store.messages.search(id, `"unbalanced ( quote`)).toEqual([]);
      expect(await t.store.messages.search(id, "the")).toEqual([]); // only a stop word
      expect(await t.store.messages.search(id, "")).toEqual([]);
      const [hit] = await t.store.messages.search(id, "npm");
      expect(hit).toMatchObject({ seq: 1, kind: "conversation", iteration: 1, role: "assistant", message: { role: "assistant" } });
      expect(hit!.rank).toBeGreaterThan(0);
    });

    it("returns the newest of equally good matches first, up to the limit, of the kinds asked for", async () => {
      const id = await t.session();
      await t.store.messages.append(id, [
        said(1, "marmot"),
        said(2, "marmot", "injected"),
        said(3, "marmot"),
        said(4, "marmot", "archived"),
      ]);
      expect((await t.store.messages.search(id, "marmot")).map((h) => h.seq)).toEqual([4, 3, 2, 1]);
      expect((await t.store.messages.search(id, "marmot", { limit: 2 })).map((h) => h.seq)).toEqual([4, 3]);
      expect((await t.store.messages.search(id, "marmot", { kinds: ["conversation", "injected"] })).map((h) => h.seq)).toEqual([3, 2, 1]);
      expect((await t.store.messages.search(id, "marmot", { kinds: [] })).map((h) => h.seq)).toEqual([4, 3, 2, 1]);
      expect(await t.store.messages.search(`${id}-other`, "marmot")).toEqual([]);
    });
  });
}
