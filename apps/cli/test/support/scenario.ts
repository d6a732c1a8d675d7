import { writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A scripted scenario for an editor-hat session: `steps` turns that each write a file (slowly, so a
 * test can interrupt mid-run), then task_complete. Returns the path of the JSONL file.
 */
export function writeScenario(dir: string, steps: number, delayMs = 30): string {
  const lines = Array.from({ length: steps }, (_, i) =>
    JSON.stringify({
      text: `Step ${i + 1} of the work, writing its note.`,
      tools: [{ name: "write_file", input: { path: `notes/${i + 1}.txt`, content: `step ${i + 1}\n` } }],
      delay_ms: delayMs,
      chunk_chars: 8,
    }),
  );
  lines.push(JSON.stringify({ text: "All steps written.", tools: [{ name: "task_complete", input: { summary: "notes written" } }] }));
  const path = join(dir, "scenario.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}
