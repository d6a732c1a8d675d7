import { execa } from "execa";

// Pull requests through the GitHub CLI (`gh`), the user's own installation and login: hatloop holds
// no GitHub credential. gh finds the repository from the git remotes of `cwd`. Every failure is an
// answer with a reason (not installed, not signed in, offline, gh's own error), never an exception.

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

/**
 * gh's words for a network that failed it (cli/cli: printError's "error connecting to <host>",
 * auth status's "Timeout trying to log in", Go's dial errors): offline is not signed out.
 */
const UNREACHABLE =
  /error connecting to|check your internet connection|Timeout trying to log in|dial tcp|no such host|connection refused|network is unreachable|i\/o timeout|TLS handshake timeout|connection reset/i;
/** GitHub refused the login gh sent: a revoked or expired token. */
const REFUSED = /HTTP 401|Bad credentials/i;

export async function createPullRequest(request: PullRequestRequest): Promise<PullRequestOutcome> {
  const timeoutMs = request.timeoutMs ?? GH_TIMEOUT_MS;
  const auth = await gh(["auth", "status"], request.cwd, timeoutMs);
  if (auth.failed && (auth as { code?: string }).code === "ENOENT")
    return { ok: false, reason: "the GitHub CLI (gh) is not installed (https://cli.github.com)" };
  if (auth.exitCode !== 0) {
    const unreachable = matchingLine(auth, UNREACHABLE);
    if (unreachable) return { ok: false, reason: offline(unreachable) };
    // gh says a token "is invalid" for any failed check but a timeout, a refused connection too:
    // only "not logged into any host" is sure; otherwise pr create's own failure tells them apart.
    if (/not logged in/i.test(`${auth.stderr}\n${auth.stdout}`))
      return { ok: false, reason: `gh is not signed in (${outputLine(auth) || "gh auth status failed"}); run gh auth login` };
  }
  const args = ["pr", "create", "--head", request.head, "--title", request.title, "--body-file", "-"];
  if (request.base) args.push("--base", request.base);
  if (request.draft) args.push("--draft");
  const created = await gh(args, request.cwd, timeoutMs, request.body);
  if (created.exitCode !== 0) {
    if (created.timedOut) return { ok: false, reason: `gh pr create failed: no answer in ${timeoutMs / 1000}s` };
    const unreachable = matchingLine(created, UNREACHABLE);
    if (unreachable) return { ok: false, reason: offline(unreachable) };
    const refused = matchingLine(created, REFUSED);
    // gh exits 4 when it has no login at all.
    if (refused || created.exitCode === 4)
      return { ok: false, reason: `gh's login is not accepted by GitHub (${refused ?? outputLine(created)}); run gh auth login` };
    return { ok: false, reason: `gh pr create failed: ${outputLine(created) || `exit ${created.exitCode ?? "?"}`}` };
  }
  const url = created.stdout.split("\n").findLast((line) => /^https?:\/\/\S+$/.test(line.trim()));
  return { ok: true, url: url?.trim() ?? null };
}

function offline(line: string): string {
  return `gh could not reach GitHub (${line}): check the network connection; gh auth login would not help`;
}

/** gh's first line that matches, without its status mark ("X ") and the token's source ("(~/.config/gh/hosts.yml)"). */
function matchingLine(result: { stderr: string; stdout: string }, pattern: RegExp): string | null {
  const line = `${result.stderr}\n${result.stdout}`.split("\n").find((l) => pattern.test(l));
  return line === undefined
    ? null
    : line
        .trim()
        .replace(/^X\s+/, "")
        .replace(/\s+\([^()]*\)$/, "") || null;
}

/** The line of gh's output that says what went wrong (its stderr first). */
function outputLine(result: { stderr: string; stdout: string }): string {
  const lines = `${result.stderr}\n${result.stdout}`
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.find((l) => /error|not logged|failed|already exists|must|could not/i.test(l)) ?? lines[0] ?? "";
}
