import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** The signals step `n` of a scenario written with `{ signals: true }` carries. */
export const stepSignals = (n: number) => ({ memory: `note ${n} is in notes/${n}.txt`, scratchpad: `notes written through ${n}` });

/**
 * A scripted scenario for an editor-hat session: `steps` turns that each write a file (slowly, so a
 * test can interrupt mid-run), then task_complete. With `signals`, each turn's text also carries a
 * MEMORY and a SCRATCHPAD signal (stepSignals). Returns the path of the JSONL file.
 */
export function writeScenario(dir: string, steps: number, delayMs = 30, options: { signals?: boolean } = {}): string {
  const signals = (n: number) => {
    const { memory, scratchpad } = stepSignals(n);
    return options.signals ? `\nMEMORY:decision:${memory}\nSCRATCHPAD: ${scratchpad}` : "";
  };
  const lines = Array.from({ length: steps }, (_, i) =>
    JSON.stringify({
      text: `Step ${i + 1} of the work, writing its note.${signals(i + 1)}`,
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
