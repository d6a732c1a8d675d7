import type { Child } from "hono/jsx";
import { assetPath } from "../assets.js";

// The frame of every page: the navigation, the scripts (htmx and its SSE extension: server-rendered
// pages, fragments swapped in, live updates pushed), and the login's CSRF token, which htmx sends
// with every request of the page (hx-headers) so that actions can be checked.

export function Layout(props: { title: string; csrf: string; active: "fleet" | "workers" | "session"; children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"historyCacheSize":0}' />
        <title>{`${props.title} · hatloop`}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={assetPath("console.css")} />
        <script src={assetPath("htmx.min.js")} defer></script>
        <script src={assetPath("sse.js")} defer></script>
      </head>
      <body hx-headers={JSON.stringify({ "X-Hatloop-CSRF": props.csrf })} hx-ext="sse">
        <header class="top">
          <a class="brand" href="/">
            hatloop
          </a>
          <nav>
            <a href="/" aria-current={props.active === "fleet" ? "page" : undefined}>
              Sessions
            </a>
            <a href="/workers" aria-current={props.active === "workers" ? "page" : undefined}>
              Workers
            </a>
          </nav>
        </header>
        <main>{props.children}</main>
        <div id="toast" role="status" aria-live="polite"></div>
      </body>
    </html>
  );
}

/** A page of one message (not found, refused), with the way back. */
export function MessagePage(props: { title: string; message: string; children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · hatloop`}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={assetPath("console.css")} />
      </head>
      <body>
        <main class="login">
          <h1>{props.title}</h1>
          <p>{props.message}</p>
          {props.children ?? (
            <p>
              <a href="/">All sessions</a>
            </p>
          )}
        </main>
      </body>
    </html>
  );
}
