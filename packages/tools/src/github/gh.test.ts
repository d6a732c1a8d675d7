import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createPullRequest } from "./gh.js";
import { tempDir } from "../test-support/fixtures.js";

// Why gh could not open the pull request, told right: a machine that is only offline is not "not
// signed in". The stand-in gh answers `auth status` and `pr create` with what gh 2.x prints in each
// case (cli/cli internal/ghcmd/cmd.go printError, pkg/cmd/auth/status/status.go): offline, gh's
// auth status says the token "is invalid" (any error but a timeout), or "Timeout trying to log in";
// pr create says "error connecting to <host>"; a revoked token gets HTTP 401 from the API.

const HOSTS = "/home/u/.config/gh/hosts.yml";
const INVALID = `github.com\n  X Failed to log in to github.com account acme (${HOSTS})\n  - Active account: true\n  - The token in ${HOSTS} is invalid.\n  - To re-authenticate, run: gh auth login -h github.com\n`;
const TIMEOUT = `github.com\n  X Timeout trying to log in to github.com account acme (${HOSTS})\n  - Active account: true\n`;
const OFFLINE = "error connecting to api.github.com\ncheck your internet connection or https://githubstatus.com\n";
const REVOKED = "HTTP 401: Bad credentials (https://api.github.com/graphql)\nTry authenticating with:  gh auth login\n";

/** A gh on PATH whose `auth status` and `pr create` print to stderr and exit as given. */
function fakeGh(auth: [string, number], create: [string, number]): void {
  const dir = tempDir("hatloop-gh-");
  writeFileSync(path.join(dir, "auth.txt"), auth[0]);
  writeFileSync(path.join(dir, "create.txt"), create[0]);
  writeFileSync(
    path.join(dir, "gh"),
    [
      "#!/bin/sh",
      `if [ "$1" = auth ]; then cat ${dir}/auth.txt >&2; exit ${auth[1]}; fi`,
      `if [ "$1" = pr ]; then cat >/dev/null; echo https://github.com/acme/app/pull/7; cat ${dir}/create.txt >&2; exit ${create[1]}; fi`,
      "exit 2",
      "",
    ].join("\n"),
  );
  chmodSync(path.join(dir, "gh"), 0o755);
  vi.stubEnv("PATH", `${dir}${path.delimiter}${process.env.PATH ?? ""}`);
}

const request = () => ({ cwd: tempDir(), head: "hatloop/1a2b3c4d", base: null, title: "t", body: "b", draft: false });

describe("why gh opened no pull request", () => {
  it("offline: gh's auth status calls the token invalid, pr create cannot connect: said as the network, not the login", async () => {
    fakeGh([INVALID, 1], [OFFLINE, 1]);
    const outcome = await createPullRequest(request());
    expect(outcome).toEqual({
      ok: false,
      reason: "gh could not reach GitHub (error connecting to api.github.com): check the network connection; gh auth login would not help",
    });
  });

  it("offline with a timeout: said as the network at once", async () => {
    fakeGh([TIMEOUT, 1], ["should not be called", 1]);
    const outcome = await createPullRequest(request());
    expect(outcome).toEqual({
      ok: false,
      reason:
        "gh could not reach GitHub (Timeout trying to log in to github.com account acme): check the network connection; gh auth login would not help",
    });
  });

  it("a token GitHub refuses is a sign-in problem, with the way out", async () => {
    fakeGh([INVALID, 1], [REVOKED, 1]);
    const outcome = await createPullRequest(request());
    expect(outcome).toEqual({
      ok: false,
      reason: "gh's login is not accepted by GitHub (HTTP 401: Bad credentials); run gh auth login",
    });
  });

  it("no login at all: not signed in, without trying", async () => {
    fakeGh(["You are not logged into any GitHub hosts. To log in, run: gh auth login\n", 1], ["should not be called", 1]);
    const outcome = await createPullRequest(request());
    expect(outcome).toEqual({
      ok: false,
      reason: "gh is not signed in (You are not logged into any GitHub hosts. To log in, run: gh auth login); run gh auth login",
    });
  });

  it("an auth status that failed for a passing reason does not stop a pull request gh can open", async () => {
    fakeGh([INVALID, 1], ["", 0]);
    await expect(createPullRequest(request())).resolves.toEqual({ ok: true, url: "https://github.com/acme/app/pull/7" });
  });
});
