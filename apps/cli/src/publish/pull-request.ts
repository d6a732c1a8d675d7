import { errorMessage } from "@hatloop/context";
import type { EventData, HatloopConfig, SessionRecord, Store } from "@hatloop/core";
import { compareUrlOf, createPullRequest, pushBranch, remoteDefaultBranch, remoteUrl, webAddressOf } from "@hatloop/tools";
import { findHandoff } from "../session/handoff.js";
import { pullRequestBody } from "./pr-body.js";

// `--pr`: a completed session's branch is pushed to the repository's remote and proposed as a pull
// request through gh. Whatever stands in the way (no remote, a refused push, gh missing or signed
// out) is an answer with its reason and, once pushed, the compare page to open one by hand: the
// session completed either way.

type PullRequestResult = EventData<"pr.result">;

export async function openPullRequest(options: {
  session: SessionRecord;
  store: Store;
  pr: HatloopConfig["pr"];
  gates: EventData<"gate.result"> | null;
}): Promise<PullRequestResult> {
  const { session, pr } = options;
  const dir = session.worktreePath;
  const branch = session.branch;
  const result = (over: Partial<PullRequestResult>): PullRequestResult => ({
    opened: false,
    url: null,
    compareUrl: null,
    branch,
    base: null,
    remote: pr.remote,
    pushed: false,
    draft: pr.draft,
    reason: null,
    ...over,
  });
  const address = await remoteUrl(dir, pr.remote);
  if (!address)
    return result({ reason: `the repository has no remote "${pr.remote}" (git remote add ${pr.remote} URL, or set pr.remote)` });
  const base = pr.base ?? (await remoteDefaultBranch(dir, pr.remote));
  if (base === branch)
    return result({ base, reason: `the session worked on ${branch}, the base branch itself (in place): nothing to propose` });
  try {
    await pushBranch(dir, pr.remote, branch);
  } catch (error) {
    return result({ base, reason: errorMessage(error) });
  }
  const web = webAddressOf(address);
  const compareUrl = web ? compareUrlOf(web, branch, base) : null;
  const found = await findHandoff(options.store, session.id).catch(() => null);
  const body = pullRequestBody({ sessionId: session.id, task: session.task, handoff: found?.handoff ?? null, gates: options.gates });
  const created = await createPullRequest({ cwd: dir, head: branch, base, title: session.title, body, draft: pr.draft });
  if (created.ok) return result({ opened: true, url: created.url, compareUrl, base, pushed: true });
  const noWeb = web ? "" : `; the remote ${address} has no web address`;
  return result({ compareUrl, base, pushed: true, reason: created.reason + noWeb });
}
