import { Text, useInput, type Key } from "ink";
import { describe, expect, it } from "vitest";
import { frame, settle } from "../test-support/render-view.js";
import { keyOfChar, splitKeys, type KeyEvent } from "./split-keys.js";
import type { Keys } from "./view-state.js";

// Several keys in one read: every one counts, in order, each described as Ink describes it alone.

/** What the installed Ink's useInput is called with for each chunk written to stdin. */
function InputRecorder({ calls }: { calls: Array<{ input: string; key: Key }> }) {
  useInput((input, key) => void calls.push({ input, key }));
  return <Text>ready</Text>;
}

/** The calls Ink makes for `chunk`, written in one read. */
async function inkCalls(chunk: string) {
  const calls: Array<{ input: string; key: Key }> = [];
  const { app } = frame(<InputRecorder calls={calls} />);
  app.stdin.write(chunk);
  await settle(() => calls.length > 0);
  app.unmount();
  return calls;
}

/** The flags the views read. */
const FLAGS = Object.keys(keyOfChar("x").key) as Array<keyof Keys>;

/** The keys as short names: "x" for text, "^a" for ctrl, and the flag's name for the others. */
const names = (events: KeyEvent[]) =>
  events.map(({ input, key }) => {
    const flag = FLAGS.find((k) => k !== "ctrl" && k !== "meta" && key[k]);
    if (flag) return flag;
    return key.ctrl ? `^${input}` : input;
  });

async function splitAsInk(chunk: string) {
  return (await inkCalls(chunk)).flatMap(({ input, key }) => splitKeys(input, key));
}

describe("how the installed Ink hands over several keys read at once", () => {
  it("gives a run of plain keys as one call (why the keys are split at all)", async () => {
    const calls = await inkCalls("/abc");
    expect(calls.map((c) => c.input)).toEqual(["/abc"]);
  });

  it("cuts at escape sequences, so an arrow is its own call", async () => {
    const calls = await inkCalls("ab\u001b[Acd");
    expect(calls.map((c) => c.input)).toEqual(["ab", "", "cd"]);
    expect(calls[1]!.key.upArrow).toBe(true);
  });
});

describe("splitting a call into keys", () => {
  it("splits printable runs into characters", async () => {
    expect(names(await splitAsInk("/abc"))).toEqual(["/", "a", "b", "c"]);
    expect(names(await splitAsInk("[[["))).toEqual(["[", "[", "["]);
    expect(names(await splitAsInk("ffff"))).toEqual(["f", "f", "f", "f"]);
  });

  it("splits control keys from the text around them, as Ctrl + letter", async () => {
    expect(names(await splitAsInk("\u0001X\u0005Y"))).toEqual(["^a", "X", "^e", "Y"]);
    expect(names(await splitAsInk("ab\u0015\u0017\u000b\u0004"))).toEqual(["a", "b", "^u", "^w", "^k", "^d"]);
  });

  it("gives Enter, Tab, Backspace and DEL their flags, as Ink does for each alone", async () => {
    expect(names(await splitAsInk("hi\r"))).toEqual(["h", "i", "return"]);
    expect(names(await splitAsInk("a\tb"))).toEqual(["a", "tab", "b"]);
    expect(names(await splitAsInk("ab\u007f\u007f"))).toEqual(["a", "b", "delete", "delete"]);
    expect(names(await splitAsInk("ab\b"))).toEqual(["a", "b", "backspace"]);
    // Each as Ink reports it alone.
    for (const ch of ["\r", "\t", "\u007f", "\b", "\u0001", "x"]) {
      const [alone] = await inkCalls(ch);
      const { input, key } = keyOfChar(ch);
      expect(input).toBe(alone!.input);
      for (const flag of FLAGS) expect([flag, key[flag]]).toEqual([flag, alone!.key[flag]]);
    }
  });

  it("keeps escape sequences whole, between the keys around them", async () => {
    expect(names(await splitAsInk("ab\u001b[Acd"))).toEqual(["a", "b", "upArrow", "c", "d"]);
    expect(names(await splitAsInk("\u001b[H\u001b[F\u001b[5~x"))).toEqual(["home", "end", "pageUp", "x"]);
    expect(names(await splitAsInk("\u001b[Z"))).toEqual(["tab"]);
  });

  it("keeps what Ink leaves of a sequence it has no name for as one key", async () => {
    expect(names(await splitAsInk("\u001b[25~"))).toEqual(["[25~"]);
    expect(names(await splitAsInk("\u001b[200~"))).toEqual(["[200~"]);
    // Mouse reports (SGR): a press ends in M, a release in m; both stay one key.
    expect(names(await splitAsInk("\u001b[<0;12;7M"))).toEqual(["[<0;12;7M"]);
    expect(names(await splitAsInk("\u001b[<0;12;7m"))).toEqual(["[<0;12;7m"]);
    expect(splitKeys("O5P", keyOfChar("O").key).map((e) => e.input)).toEqual(["O5P"]);
    // Typed brackets are keys, though: "[[", "[]" and "[a" are not sequences.
    expect(names(await splitAsInk("[]"))).toEqual(["[", "]"]);
    expect(names(await splitAsInk("[a"))).toEqual(["[", "a"]);
  });

  it("keeps characters outside the BMP whole, and a single key as it came", () => {
    expect(splitKeys("a😀b", keyOfChar("a").key).map((e) => e.input)).toEqual(["a", "😀", "b"]);
    const up = { ...keyOfChar("x").key, upArrow: true };
    expect(splitKeys("", up)).toEqual([{ input: "", key: up }]);
    expect(splitKeys("q", keyOfChar("q").key)).toEqual([keyOfChar("q")]);
  });
});
