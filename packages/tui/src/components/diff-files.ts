import { clean } from "./lines.js";

// A checkpoint's commit as `git show --patch` prints it (the console's diff, apps/cli/src/serve/
// commit-diff.ts), split into the files it changed, each with its own diff and its line counts:
// what the files view lists on the left and shows on the right.

export interface ChangedFile {
  path: string;
  added: number;
  removed: number;
  /** The file's diff, from its `diff --git` line. */
  diff: string[];
}

export interface CommitChanges {
  /** `git show`'s first line: the short hash and subject. */
  subject: string;
  files: ChangedFile[];
}

let parsed: { text: string; changes: CommitChanges } | null = null;

/** The files of a commit's diff (parsed once per text: a frame and each key ask again). */
export function changesOf(text: string): CommitChanges {
  if (parsed?.text === text) return parsed.changes;
  const lines = clean(text).split("\n");
  const files: ChangedFile[] = [];
  let file: ChangedFile | null = null;
  for (const line of lines) {
    const head = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
    if (head) {
      file = { path: head[2]!, added: 0, removed: 0, diff: [line] };
      files.push(file);
      continue;
    }
    if (!file) continue;
    file.diff.push(line);
    if (line.startsWith("+") && !line.startsWith("+++ ")) file.added++;
    else if (line.startsWith("-") && !line.startsWith("--- ")) file.removed++;
  }
  for (const f of files) while (f.diff.length > 1 && f.diff.at(-1) === "") f.diff.pop();
  const changes = { subject: lines[0] ?? "", files };
  parsed = { text, changes };
  return changes;
}

/** A diff line's colour: additions green, removals red, hunk heads cyan, file heads bold. */
export function diffTone(line: string): "add" | "remove" | "hunk" | "head" | null {
  if (/^(diff --git |index |--- |\+\+\+ |new file|deleted file|similarity|rename )/.test(line)) return "head";
  if (line.startsWith("+")) return "add";
  if (line.startsWith("-")) return "remove";
  if (line.startsWith("@@")) return "hunk";
  return null;
}
