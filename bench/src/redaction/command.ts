import { redactSecrets } from "@hatloop/context";
import { median, round } from "../util/stats.js";

// Secret redaction on single lines (no newline anywhere) of the shapes that once made it quadratic:
// a 100 KB identifier took 94 s, 10 MB never finished. Every reply and tool result goes through it
// before it is stored, on the loop's thread. Medians of runs.

const SHAPES: Array<[shape: string, unit: string]> = [
  ["prose", "The quick brown fox jumps over the lazy dog, then reads src/auth/token.ts again. "],
  ["JSON", '{"path":"src/a.ts","line":12,"apiKey":"k-123-456","ok":true},'],
  ["one identifier", "a"],
  ["dotted identifier", "a."],
  ["repeated JWT starts", "eyJ-"],
  ["base64 token", "Zx8Kq2LmP9vR4tYw7nB3/"],
  ["assignments", 'a="'],
];

interface RedactionTiming {
  shape: string;
  bytes: number;
  ms: number;
}

export function redactionCommand(quick: boolean): { json: unknown; markdown: string } {
  const sizes = quick ? [100_000, 1_000_000] : [100_000, 10_000_000];
  const runs = quick ? 1 : 3;
  const timings: RedactionTiming[] = [];
  for (const [shape, unit] of SHAPES) {
    for (const bytes of sizes) {
      const text = unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
      const ms: number[] = [];
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        redactSecrets(text);
        ms.push(performance.now() - started);
      }
      timings.push({ shape, bytes, ms: round(median(ms), 1) });
    }
  }
  const size = (bytes: number) => (bytes >= 1_000_000 ? `${bytes / 1_000_000} MB` : `${bytes / 1_000} KB`);
  const markdown = [
    "## Redaction bench",
    "",
    `\`redactSecrets\` on one line without a newline; median of ${runs} run(s).`,
    "",
    `| shape | ${sizes.map(size).join(" | ")} |`,
    `|---|${sizes.map(() => "---:").join("|")}|`,
    ...SHAPES.map(
      ([shape]) => `| ${shape} | ${sizes.map((b) => `${timings.find((t) => t.shape === shape && t.bytes === b)!.ms} ms`).join(" | ")} |`,
    ),
  ].join("\n");
  return { json: { bench: "redaction", runs, timings }, markdown };
}
