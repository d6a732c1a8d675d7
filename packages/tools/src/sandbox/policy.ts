import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { SandboxConfig } from "@hatloop/core";

// What a session's sandbox allows, from its configuration and where it runs: pure, so the lists can
// be read (and tested) apart from the library that enforces them (runtime.ts).

/** Credential stores in the home directory, hidden from every sandboxed command. */
export const SECRET_PATHS = [
  ".ssh",
  ".aws",
  ".config/gh",
  ".config/gcloud",
  ".config/hatloop",
  ".azure",
  ".kube",
  ".docker",
  ".gnupg",
  ".netrc",
  ".git-credentials",
  ".pypirc",
  ".cargo/credentials",
  ".cargo/credentials.toml",
];

/** Package-manager caches the commands may write, where they exist when the session starts. */
export const CACHE_PATHS = [
  ".npm",
  ".cache",
  ".local/share/pnpm",
  ".yarn",
  ".cargo/registry",
  ".cargo/git",
  "go/pkg/mod",
  ".m2/repository",
  ".gradle/caches",
];

/** The public package registries, reachable with `network: allow-list`. */
export const REGISTRY_HOSTS = [
  "registry.npmjs.org",
  "registry.yarnpkg.com",
  "pypi.org",
  "files.pythonhosted.org",
  "crates.io",
  "index.crates.io",
  "static.crates.io",
  "proxy.golang.org",
  "sum.golang.org",
  "repo.maven.apache.org",
  "repo1.maven.org",
  "rubygems.org",
];

export interface SandboxPolicy {
  /** Readable and writable. */
  worktree: string;
  /** Readable beyond the worktree although under a hidden directory (a worktree's git directory). */
  allowRead: string[];
  allowWrite: string[];
  denyRead: string[];
  /** Inside the worktree, not writable: its `.git`, whose hooks and config hatloop's own git would run. */
  denyWrite: string[];
  network: SandboxConfig["network"];
  /** Reachable with `network: allow-list`. */
  allowHosts: string[];
  maxProcesses: number;
  maxFileMb: number;
}

export interface SandboxPlace {
  worktree: string;
  /** The repository's git directory (`git rev-parse --git-common-dir`): a worktree's git commands read it. */
  gitDir: string;
  /** Where the session's sibling worktrees live (hidden). */
  worktreesDir: string;
  /** hatloop's own directories (its data directory, its database's socket directory): hidden. */
  hatloopDirs: string[];
  /** The host of the repository's remote, if it has one on the network. */
  remoteHost?: string;
  /** Default: the user's home. */
  home?: string;
}

export function sandboxPolicy(config: SandboxConfig, place: SandboxPlace): SandboxPolicy {
  const home = place.home ?? homedir();
  const inHome = (p: string) => (p === "~" ? home : p.startsWith("~/") ? path.join(home, p.slice(2)) : path.resolve(p));
  // A hidden directory that holds the worktree would hide it: the worktree is allowed back (allowRead).
  const hidden = [place.worktreesDir, ...place.hatloopDirs].filter((dir) => !isAncestor(dir, home) && dir !== path.parse(dir).root);
  return {
    worktree: place.worktree,
    allowRead: [place.gitDir],
    allowWrite: [...CACHE_PATHS.map((p) => path.join(home, p)).filter((p) => existsSync(p)), ...config.allowWrite.map(inHome)],
    denyRead: [...SECRET_PATHS.map((p) => path.join(home, p)), ...hidden, ...config.denyRead.map(inHome)],
    denyWrite: [path.join(place.worktree, ".git")],
    network: config.network,
    allowHosts: [...REGISTRY_HOSTS, ...(place.remoteHost ? [place.remoteHost] : []), ...config.allowHosts],
    maxProcesses: config.maxProcesses,
    maxFileMb: config.maxFileMb,
  };
}

function isAncestor(dir: string, of: string): boolean {
  const rel = path.relative(dir, of);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The host of a git remote URL (`https://host/...`, `ssh://user@host:22/...`, `user@host:path`); none for a local path. */
export function remoteHostOf(url: string): string | undefined {
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)/.exec(url);
  if (scp && !/^[A-Za-z]:\\/.test(url)) return scp[1];
  try {
    const parsed = new URL(url);
    return parsed.protocol === "file:" || !parsed.hostname ? undefined : parsed.hostname;
  } catch {
    return undefined;
  }
}
