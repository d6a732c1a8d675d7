import { statSync } from "node:fs";
import { delimiter, join } from "node:path";

// How the hints the CLI prints ("continue with: hatloop resume 1a2b3c4d") name hatloop: by a command
// that works in the shell that started it. `hatloop` when that name is on the PATH (npm's global bin
// after `pnpm link-hatloop`, or any other install); else the way this process was started: the
// repository's script (`npx -y pnpm@10 hatloop`: `pnpm hatloop`, `pnpm demo` and `pnpm start` run the
// CLI) or `node /path/to/bin.js`.

interface Started {
  env: NodeJS.ProcessEnv;
  /** process.argv: node, the script, the arguments. */
  argv: readonly string[];
  platform: NodeJS.Platform;
}

let ours: string | undefined;

/** The command for this process (looked up once), or for `started`. */
export function invocation(started?: Started): string {
  if (started) return commandFor(started);
  ours ??= commandFor({ env: process.env, argv: process.argv, platform: process.platform });
  return ours;
}

function commandFor({ env, argv, platform }: Started): string {
  if (onPath("hatloop", env, platform)) return "hatloop";
  // A script of the repository's package.json, run by pnpm: from npx's cache (the README's `npx -y
  // pnpm@10 ...`) or an installed pnpm.
  if (env.npm_lifecycle_event && env.npm_package_name === "hatloop-monorepo" && /pnpm/.test(env.npm_execpath ?? "")) {
    return `${/[/\\]_npx[/\\]/.test(env.npm_execpath ?? "") ? "npx -y pnpm@10" : "pnpm"} hatloop`;
  }
  const node = onPath("node", env, platform) ? "node" : quoted(process.execPath);
  return `${node} ${quoted(argv[1] ?? "hatloop")}`;
}

/** Whether `name` is an executable file in a directory of the PATH (on Windows, with one of PATHEXT's endings). */
function onPath(name: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): boolean {
  const endings = platform === "win32" ? ["", ...(env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").toLowerCase().split(";")] : [""];
  for (const dir of (env.PATH ?? env.Path ?? "").split(platform === "win32" ? ";" : delimiter)) {
    if (!dir) continue;
    for (const ending of endings) {
      try {
        const stat = statSync(join(dir, name + ending));
        if (stat.isFile() && (platform === "win32" || (stat.mode & 0o111) !== 0)) return true;
      } catch {
        // not there
      }
    }
  }
  return false;
}

/** A path as a shell word: as it is when it needs no quoting, else in double quotes. */
function quoted(path: string): string {
  return /^[\w./:\\-]+$/.test(path) ? path : `"${path.replaceAll('"', '\\"')}"`;
}
