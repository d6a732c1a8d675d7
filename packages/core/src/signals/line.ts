import { MEMORY_TYPES, type MemoryType, type Signal } from "./types.js";

// Parsing of one-line signals. A signal counts only at the start of a line (after indentation, a
// list bullet, a quote mark or a backtick), so prose that merely mentions "CHECKLIST_DONE:<id>" is
// not taken for one; placeholders like <id> are reported as malformed.

const PREFIX = /^\s*(?:[-*+]\s+|>\s*|\d+[.)]\s+)?`*/;
const SIGNAL_NAMES = [
  "SCRATCHPAD:",
  "CHECKLIST_ADD:",
  "CHECKLIST_DONE:",
  "CHECKLIST_FAILED:",
  "MEMORY:",
  "EVENT:",
  "ACKNOWLEDGE_FAILURES",
  "ASK_USER:",
] as const;
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

/** The line without its decoration when it starts with a signal name, else null. */
export function signalLine(line: string): string | null {
  const body = line.replace(PREFIX, "");
  return SIGNAL_NAMES.some((name) => body.startsWith(name)) ? body.replace(/(?<!`)`+\s*$/, "").trimEnd() : null;
}

/** Parses a checklist, memory, acknowledge or question line; SCRATCHPAD and EVENT need more than a line. */
export function parseLineSignal(body: string): Signal | null {
  if (body.startsWith("CHECKLIST_DONE:")) {
    const id = body.slice("CHECKLIST_DONE:".length).trim();
    return ID.test(id) ? { kind: "checklist_done", id } : malformed("CHECKLIST_DONE", body, "expected CHECKLIST_DONE:<id>");
  }
  if (body.startsWith("CHECKLIST_FAILED:") || body.startsWith("CHECKLIST_ADD:")) {
    const name = body.startsWith("CHECKLIST_ADD:") ? "CHECKLIST_ADD" : "CHECKLIST_FAILED";
    const rest = body.slice(name.length + 1);
    const colon = rest.indexOf(":");
    const id = (colon === -1 ? rest : rest.slice(0, colon)).trim();
    const text = colon === -1 ? "" : rest.slice(colon + 1).trim();
    if (!ID.test(id) || !text)
      return malformed(name, body, `expected ${name}:<id>:<${name === "CHECKLIST_ADD" ? "description" : "reason"}>`);
    return name === "CHECKLIST_ADD" ? { kind: "checklist_add", id, description: text } : { kind: "checklist_failed", id, reason: text };
  }
  if (body.startsWith("MEMORY:")) {
    const rest = body.slice("MEMORY:".length);
    const colon = rest.indexOf(":");
    const type = rest.slice(0, colon).trim().toLowerCase();
    const text = rest.slice(colon + 1).trim();
    if (colon === -1 || !MEMORY_TYPES.includes(type as MemoryType) || !text) {
      return malformed("MEMORY", body, `expected MEMORY:<type>:<text> with type one of ${MEMORY_TYPES.join(", ")}`);
    }
    return { kind: "memory", memoryType: type as MemoryType, text };
  }
  if (body.startsWith("ACKNOWLEDGE_FAILURES")) return { kind: "acknowledge" };
  if (body.startsWith("ASK_USER:")) {
    const question = body.slice("ASK_USER:".length).trim();
    return question ? { kind: "ask", question } : malformed("ASK_USER", body, "expected ASK_USER:<question>");
  }
  return null;
}

export function malformed(signal: string, line: string, reason: string): Signal {
  return { kind: "malformed", signal, line: line.slice(0, 200), reason };
}
