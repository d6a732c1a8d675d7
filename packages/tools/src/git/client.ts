import { errorMessage } from "@hatloop/context";
import { simpleGit, type SimpleGit, type SimpleGitOptions } from "simple-git";

export interface GitClientOptions {
  signal?: AbortSignal;
  /** Extra `-c key=value` settings for every command of this client. */
  config?: string[];
  /** Settings simple-git refuses unless allowed (a failpoint's core.hooksPath). */
  unsafe?: SimpleGitOptions["unsafe"];
}

export function gitAt(dir: string, options: GitClientOptions = {}): SimpleGit {
  return simpleGit({
    baseDir: dir,
    config: ["core.quotePath=false", ...(options.config ?? [])],
    ...(options.signal ? { abort: options.signal } : {}),
    ...(options.unsafe ? { unsafe: options.unsafe } : {}),
  });
}

/** The first meaningful line of a git failure ("fatal: ..."), for one-line error messages. */
export function gitErrorLine(error: unknown): string {
  const lines = errorMessage(error)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? "git failed";
}

export const FALLBACK_IDENTITY = { name: "hatloop", email: "hatloop@localhost" } as const;

/**
 * `-c` settings that make a commit succeed on any machine: a fallback identity when none is
 * configured, and no signing prompt.
 */
export async function commitConfig(dir: string): Promise<string[]> {
  // One process for both keys; none set is an exit code of 1 and no output.
  const set = await gitAt(dir)
    .raw(["config", "--get-regexp", "^user\\.(name|email)$"])
    .then(
      (out) => new Set(out.split("\n").flatMap((line) => /^user\.(name|email) \S/.exec(line)?.[1] ?? [])),
      () => new Set<string>(),
    );
  const env = process.env;
  const hasName = set.has("name") || Boolean(env.GIT_AUTHOR_NAME && env.GIT_COMMITTER_NAME);
  const hasEmail = set.has("email") || Boolean(env.GIT_AUTHOR_EMAIL && env.GIT_COMMITTER_EMAIL);
  const config = ["commit.gpgsign=false"];
  if (!hasName) config.push(`user.name=${FALLBACK_IDENTITY.name}`);
  if (!hasEmail) config.push(`user.email=${FALLBACK_IDENTITY.email}`);
  return config;
}
