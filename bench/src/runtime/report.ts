import type { DriverResult, RuntimePlan } from "./results.js";
import type { MemoryPeak } from "./memory.js";

// Markdown for the runtime bench: drivers side by side, medians.

export function renderRuntime(results: readonly DriverResult[], plan: RuntimePlan, skipped: string | null, peak: MemoryPeak): string {
  const drivers = results.map((r) => r.driver);
  const head = (first: string): string =>
    [`| ${first} | ${drivers.join(" | ")} |`, `|---|${drivers.map(() => "---:").join("|")}|`].join("\n");
  const overheadRows = results[0]!.overhead.map(
    (o, k) =>
      `| ${o.contextTokens / 1000}k tokens | ${results.map((r) => `${r.overhead[k]!.medianMs.toFixed(2)} (p95 ${r.overhead[k]!.p95Ms.toFixed(2)})`).join(" | ")} |`,
  );
  const cpRows = results[0]!.checkpoints.map((c, k) => {
    const cells = results.map((r) => {
      const x = r.checkpoints[k]!;
      return `${x.writeMedianMs.toFixed(1)} / ${x.resumeMedianMs.toFixed(1)}`;
    });
    return `| ${c.iteration} (live ${Math.round(c.liveContextTokens / 1000)}k tokens) | ${cells.join(" | ")} |`;
  });
  return [
    "## Runtime bench",
    `Zero-latency scripted model, no-op tools, the real loop (runLoop) and stores. Medians of ${plan.overheadRuns} run(s) × ${plan.overheadIterations} iterations for overhead; ${plan.resumes} resumes per stage.${skipped ? ` ${skipped}` : ""}`,
    "**Loop overhead per iteration, ms** (model and tool time excluded; window raised to 1M so the context stays at size)",
    [head("context"), ...overheadRows].join("\n"),
    "**Checkpoint write / resume, ms** (200k window; the session compacts as it ages)",
    [head("iteration"), ...cpRows].join("\n"),
    "**Event to watcher, ms** (the loop's persister flushes every 150 ms; the watcher, another process, follows with LISTEN/NOTIFY on Postgres and polling on PGlite)",
    [
      head("latency"),
      `| zero-latency model, median (p95) | ${results.map((r) => `${r.watcher.medianMs.toFixed(0)} (${r.watcher.p95Ms.toFixed(0)})`).join(" | ")} |`,
      `| ${plan.pacedModelMs} ms per model call, median (p95) | ${results.map((r) => `${r.watcherPaced.medianMs.toFixed(0)} (${r.watcherPaced.p95Ms.toFixed(0)})`).join(" | ")} |`,
    ].join("\n"),
    "**Peak memory** (RSS / heap used, MB, while each driver ran)",
    [head("memory"), `| peak | ${results.map((r) => `${r.peakMemory.rssMb} / ${r.peakMemory.heapUsedMb}`).join(" | ")} |`].join("\n"),
    `Whole runtime bench: peak RSS ${peak.rssMb} MB, heap ${peak.heapUsedMb} MB.`,
  ].join("\n\n");
}
