import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

// A stand-in for the GitHub CLI on the PATH: it records each call (arguments, stdin, directory) as a
// JSON line and answers as gh does. `mode`: "ok" (signed in, the pull request is created) or
// "signed-out" (`gh auth status` fails as it does without a login).

export interface GhCall {
  args: string[];
  stdin: string;
  cwd: string;
}

export const FAKE_PR_URL = "https://github.com/acme/app/pull/42";

export function fakeGh(mode: "ok" | "signed-out"): { path: string; calls(): GhCall[] } {
  const dir = mkdtempSync(join(tmpdir(), "hatloop-fake-gh-"));
  const log = join(dir, "calls.jsonl");
  const script = `#!${process.execPath}
const fs = require("node:fs");
const args = process.argv.slice(2);
const stdin = args.includes("-") ? fs.readFileSync(0, "utf8") : "";
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args, stdin, cwd: process.cwd() }) + "\\n");
if (args[0] === "auth" && args[1] === "status") {
  if (${JSON.stringify(mode)} === "signed-out") {
    process.stderr.write("You are not logged into any GitHub hosts. To log in, run: gh auth login\\n");
    process.exit(1);
  }
  process.stderr.write("github.com\\n  ✓ Logged in to github.com account acme\\n");
  process.exit(0);
}
if (args[0] === "pr" && args[1] === "create") {
  process.stdout.write("\\nCreating pull request for " + args[args.indexOf("--head") + 1] + " into main in acme/app\\n\\n${FAKE_PR_URL}\\n");
  process.exit(0);
}
process.exit(2);
`;
  mkdirSync(join(dir, "bin"));
  writeFileSync(join(dir, "bin", "gh"), script);
  chmodSync(join(dir, "bin", "gh"), 0o755);
  return {
    path: [join(dir, "bin"), withoutGh()].join(delimiter),
    calls: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .trim()
            .split("\n")
            .map((line) => JSON.parse(line) as GhCall)
        : [],
  };
}

/** This machine's PATH without any directory that holds a real gh. */
export function withoutGh(): string {
  return (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir && !existsSync(join(dir, "gh")))
    .join(delimiter);
}
