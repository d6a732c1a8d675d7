import { formatCost, formatDuration } from "@hatloop/core";

// Short forms the pages share.

/** "3 s ago", "4 min ago", "2 h ago", "5 d ago". */
export function ago(at: Date | number, now: number): string {
  const seconds = Math.max(0, Math.round((now - (typeof at === "number" ? at : at.getTime())) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3_600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3_600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}

/** "$1.20" or "$1.20 / $5.00" against a dollar budget. */
export function costOf(costUsd: number, budget: number | null): string {
  return budget === null ? formatCost(costUsd) : `${formatCost(costUsd)} / ${formatCost(budget)}`;
}

export function runtimeOf(ms: number): string {
  return ms > 0 ? formatDuration(ms) : "–";
}

/** The last path segment of a repository's URL or path. */
export function repoName(repo: string | null): string {
  if (!repo) return "–";
  return (
    repo
      .replace(/\.git$/, "")
      .split(/[/:]/)
      .filter(Boolean)
      .at(-1) ?? repo
  );
}

/** Query-string form of a filter, for links and the live stream. */
export function queryString(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
}
