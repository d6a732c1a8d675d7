import type { JSX } from "hono/jsx/jsx-runtime";

// The console's components are synchronous: rendering one gives its HTML at once.

/** An element (or nothing) as HTML text. */
export function toHtml(element: JSX.Element | null): string {
  if (element === null) return "";
  if (element instanceof Promise) throw new Error("an asynchronous component cannot be rendered here");
  return element.toString();
}

/** A whole page, with its doctype. */
export function page(element: JSX.Element): string {
  return `<!doctype html>${toHtml(element)}`;
}
