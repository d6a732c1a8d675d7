import { useEffect, useState } from "react";
import { changesOf, type ChangedFile } from "../components/diff-files.js";
import type { TuiState } from "../state/types.js";
import type { ChangesLoader } from "./view-effects.js";

/**
 * The files the last checkpoint committed, for the side column's files pane: read from the worktree
 * once per checkpoint commit (a checkpoint comes every few iterations), only while `wanted` (a tall
 * two-column view). Null: no checkpoint, or its diff is not readable here.
 */
export function useLastChanges(state: TuiState, changes: ChangesLoader | undefined, wanted: boolean) {
  const last = state.checkpoints.at(-1) ?? null;
  const [read, setRead] = useState<{ commit: string; files: ChangedFile[] | null } | null>(null);
  const commit = wanted && changes ? (last?.commit ?? null) : null;
  useEffect(() => {
    if (commit === null || !changes) return;
    let current = true;
    changes.diff(commit).then(
      (text) => current && setRead({ commit, files: text === null ? null : changesOf(text).files }),
      () => current && setRead({ commit, files: null }),
    );
    return () => {
      current = false;
    };
  }, [commit, changes]);
  return last && read?.commit === last.commit && read.files ? { checkpoint: last, files: read.files } : null;
}
