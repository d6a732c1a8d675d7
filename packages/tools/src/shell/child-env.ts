// The environment of every command the agent or the gates run (the gates run the agent's code too):
// an allow-list, not hatloop's whole environment, so no credential (API keys, cloud and registry
// tokens, PGPASSWORD, ...) is within the agent's reach unless the user's configuration names it
// (`tools.passEnv`). hatloop's own credentials never pass. Tools are told they run unattended.

/** Names that carry no credential and that ordinary tool chains need. */
const DEFAULT_NAMES = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  "TMPDIR",
  "TMP",
  "TEMP",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
  "NVM_DIR",
  "NVM_BIN",
  "VOLTA_HOME",
  "PNPM_HOME",
  "JAVA_HOME",
  "GOPATH",
  "GOROOT",
  "GOCACHE",
  "GOMODCACHE",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "PYENV_ROOT",
  "VIRTUAL_ENV",
  "CONDA_PREFIX",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_NOSYSTEM",
]);
const DEFAULT_PREFIXES = ["LC_"];

/** hatloop's own: never passed, even when the configuration names them. */
const HATLOOP_OWN = new Set(["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "DATABASE_URL", "HATLOOP_SERVE_TOKEN"]);

function isHatloopOwn(name: string): boolean {
  return HATLOOP_OWN.has(name) || name.startsWith("HATLOOP_");
}

/** `allow`: further names to pass; `NAME_*` passes every name with that prefix. */
export function childEnv(base: NodeJS.ProcessEnv = process.env, allow: readonly string[] = []): Record<string, string> {
  const names = new Set([...DEFAULT_NAMES, ...allow.filter((n) => !n.endsWith("*"))]);
  const prefixes = [...DEFAULT_PREFIXES, ...allow.filter((n) => n.endsWith("*")).map((n) => n.slice(0, -1))];
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || isHatloopOwn(key)) continue;
    if (names.has(key) || prefixes.some((p) => key.startsWith(p))) env[key] = value;
  }
  env.CI = "true";
  env.NO_COLOR = "1";
  env.FORCE_COLOR = "0";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_PAGER = "cat";
  env.PAGER = "cat";
  return env;
}
