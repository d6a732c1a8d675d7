import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CONSOLE_CSS } from "./console-css.js";

// The console's only static files: htmx and its SSE extension (from their npm packages) and the style
// sheet. Each is served under a path that names its content's hash, so a browser keeps it for good and
// a new version is a new path.

interface Asset {
  body: string;
  type: string;
  path: string;
}

function asset(name: string, body: string, type: string): Asset {
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
  return { body, type, path: `/assets/${hash}/${name}` };
}

const read = (specifier: string) => readFileSync(fileURLToPath(specifier), "utf8");

const ASSETS = new Map<string, Asset>(
  [
    asset("htmx.min.js", read(import.meta.resolve("htmx.org/dist/htmx.min.js")), "text/javascript; charset=utf-8"),
    asset("sse.js", read(import.meta.resolve("htmx-ext-sse/dist/sse.min.js")), "text/javascript; charset=utf-8"),
    asset("console.css", CONSOLE_CSS, "text/css; charset=utf-8"),
  ].map((a) => [a.path.split("/").at(-1)!, a]),
);

export function assetPath(name: string): string {
  return ASSETS.get(name)!.path;
}

/** The asset a request path names, when its hash is the current one. */
export function assetAt(path: string): Asset | null {
  const found = ASSETS.get(path.split("/").at(-1) ?? "");
  return found?.path === path ? found : null;
}

/** Every script a page loads, as served: for the bench's first-load figure. */
export function scriptBodies(): string[] {
  return [...ASSETS.values()].filter((a) => a.type.startsWith("text/javascript")).map((a) => a.body);
}
