import { execa } from "execa";

// Pull requests through the GitHub CLI (`gh`), the user's own installation and login: hatloop holds
// no GitHub credential. gh finds the repository from the git remotes of `cwd`. Every failure is an
// answer with a reason (not installed, not signed in, gh's own error), never an exception.

export type PullRequestOutcome = { ok: true; url: string | null } | { ok: false; reason: string };

export interface PullRequestRequest {
  cwd: string;
  head: string;
  /** null: gh's default, the repository's default branch. */
  base: string | null;
  title: string;
  body: string;
  draft: boolean;
  timeoutMs?: number;
}

const GH_TIMEOUT_MS = 120_000;
/** gh never prompts or pages, and says nothing about updates, in a headless run. */
const ghEnv = { GH_PROMPT_DISABLED: "1", GH_NO_UPDATE_NOTIFIER: "1", GH_PAGER: "cat", NO_COLOR: "1", GIT_TERMINAL_PROMPT: "0" };

function gh(args: string[], cwd: string, timeoutMs: number, input?: string) {
  return execa("gh", args, {
    cwd,
    env: ghEnv,
    reject: false,
    timeout: timeoutMs,
    ...(input === undefined ? { stdin: "ignore" as const } : { input }),
  });
}

export async function createPullRequest(request: PullRequestRequest): Promise<PullRequestOutcome> {
  const timeoutMs = request.timeoutMs ?? GH_TIMEOUT_MS;
  const auth = await gh(["auth", "status"], request.cwd, timeoutMs);
  if (auth.failed && (auth as { code?: string }).code === "ENOENT")
    return { ok: false, reason: "the GitHub CLI (gh) is not installed (https://cli.github.com)" };
  if (auth.exitCode !== 0)
    return { ok: false, reason: `gh is not signed in (${outputLine(auth) || "gh auth status failed"}); run gh auth login` };
  const args = ["pr", "create", "--head", request.head, "--title", request.title, "--body-file", "-"];
  if (request.base) args.push("--base", request.base);
  if (request.draft) args.push("--draft");
  const created = await gh(args, request.cwd, timeoutMs, request.body);
  if (created.exitCode !== 0) {
    const why = created.timedOut ? `no answer in ${timeoutMs / 1000}s` : outputLine(created) || `exit ${created.exitCode ?? "?"}`;
    return { ok: false, reason: `gh pr create failed: ${why}` };
  }
  const url = created.stdout.split("\n").findLast((line) => /^https?:\/\/\S+$/.test(line.trim()));
  return { ok: true, url: url?.trim() ?? null };
}

/** The line of gh's output that says what went wrong (its stderr first). */
function outputLine(result: { stderr: string; stdout: string }): string {
  const lines = `${result.stderr}\n${result.stdout}`
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => /error|not logged|failed|already exists|must|could not/i.test(l)) ?? lines[0] ?? "";
}
