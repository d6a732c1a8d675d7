// What `ls` and `show` say of fleet sessions (read from the database by fleet-views.ts, so from any
// machine): whether the session waits in the queue, and which worker runs it (or ran it last).

export interface FleetView {
  /** "queued": its job waits for a worker; "active": a worker has taken it; null: not in the queue. */
  queue: "queued" | "active" | null;
  /** The worker (`hatloop worker --name`) that runs it, or ran it last; null: none yet. */
  worker: string | null;
  /** The repository it travels with. */
  repo: string | null;
  /** Higher runs first (submit --priority). */
  priority: number;
  /** Out of the queue because its starts failed fleet.startRetries times in a row (hatloop retry). */
  deadLettered: boolean;
  /** Why its last start failed (clone, fetch, base branch); null: none failed since one went through. */
  startError: string | null;
  /** The schedule whose firing created it. */
  schedule: string | null;
}

/**
 * A dead-lettered session shows as "dead-lettered"; one whose job waits in the queue as "queued"
 * (unless it has ended).
 */
export function fleetStatus(view: FleetView | undefined, status: string): string {
  if (view?.deadLettered) return "dead-lettered";
  return view?.queue === "queued" && status !== "completed" && status !== "failed" ? "queued" : status;
}

/** show's lines for a fleet session. */
export function fleetLines(view: FleetView | undefined): string[] {
  if (!view) return [];
  const queue =
    view.queue === "queued" ? "queued, waiting for a worker" : view.queue === "active" ? "taken by a worker" : "not in the queue";
  return [
    `fleet      ${view.deadLettered ? "dead-lettered, out of the queue" : queue}${view.worker ? `; worker ${view.worker}` : ""}`,
    `repo       ${view.repo}`,
    `priority   ${view.priority}`,
    ...(view.startError ? [`start      failed: ${view.startError}`] : []),
    ...(view.schedule ? [`schedule   ${view.schedule}`] : []),
  ];
}
