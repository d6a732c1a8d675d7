// What runs inside the measured pages, as source text: page.evaluate sends a function's source
// anyway, and text keeps it clear of what a test runner's transform adds to functions (helpers the
// page does not have). Each records into `window.__bench`.

/**
 * Records, for every element added under `selector` (a swapped row, a new list item), the page's
 * wall-clock time when its text first shows `prefix` followed by a number: `__bench.arrivals[n]`.
 * A MutationObserver runs right after the DOM changed, before the frame is painted.
 */
export function watchArrivals(selector: string, prefix: string): string {
  return `(() => {
    const bench = (window.__bench ??= {});
    bench.arrivals = {};
    const pattern = new RegExp(${JSON.stringify(prefix)} + "(\\\\d+)");
    const root = document.querySelector(${JSON.stringify(selector)});
    if (!root) throw new Error("no element matches ${selector}");
    new MutationObserver((records) => {
      const at = performance.timeOrigin + performance.now();
      for (const record of records)
        for (const node of record.addedNodes) {
          const found = pattern.exec(node.textContent ?? "");
          if (found && !(found[1] in bench.arrivals)) bench.arrivals[found[1]] = at;
        }
    }).observe(root, { childList: true, subtree: true });
  })()`;
}

export const ARRIVALS = "window.__bench.arrivals";

/** Counts long tasks (main-thread work over 50 ms) from now on: `__bench.longTasks`. */
export const WATCH_LONG_TASKS = `(() => {
  const bench = (window.__bench ??= {});
  bench.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push(entry.duration);
  }).observe({ type: "longtask" });
})()`;

export const LONG_TASKS = "window.__bench.longTasks";

/** The page's navigation timing, ms from the navigation's start. */
export const NAVIGATION = `(() => {
  const [n] = performance.getEntriesByType("navigation");
  return {
    serverMs: n.responseStart - n.requestStart,
    responseEndMs: n.responseEnd,
    domContentLoadedMs: n.domContentLoadedEventEnd,
    loadMs: n.loadEventEnd,
    htmlBytes: n.encodedBodySize,
    htmlDecodedBytes: n.decodedBodySize,
  };
})()`;

/** Every resource the page loaded, with its size as it came over the wire (compressed) and decoded. */
export const RESOURCES = `performance.getEntriesByType("resource").map((r) => ({
  name: r.name,
  initiatorType: r.initiatorType,
  encodedBytes: r.encodedBodySize,
  decodedBytes: r.decodedBodySize,
}))`;

/**
 * Times what a person does on the sessions page: each `change` (a filter picked) and each swap a
 * request of the page brought in (htmx's afterSettle with a request; the live stream's swaps have
 * none), in the page's own time: `__bench.changes`, `__bench.swaps`.
 */
export const WATCH_INTERACTIONS = `(() => {
  const bench = (window.__bench ??= {});
  bench.changes = [];
  bench.swaps = [];
  document.body.addEventListener("change", (e) => bench.changes.push(e.timeStamp), true);
  document.body.addEventListener("htmx:afterSettle", (e) => {
    if (e.detail && e.detail.xhr) bench.swaps.push(performance.now());
  });
})()`;

export const INTERACTIONS = "({ changes: window.__bench.changes, swaps: window.__bench.swaps })";

/** How many session rows the page shows. */
export const ROW_COUNT = `document.querySelectorAll("#rows > tr").length`;
