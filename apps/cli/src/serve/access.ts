import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

// Who may read the API. It binds to loopback, but a web page can still reach a loopback port
// through DNS rebinding (its own name resolving to 127.0.0.1): such a request carries the page's
// Host, so only the names of this server are accepted. A token (--token, HATLOOP_SERVE_TOKEN) also
// keeps out other local users and programs: `Authorization: Bearer <token>`.

export interface ServeAccess {
  /** Accepted Host headers (lower case, with the port); filled in once the port is known. */
  hosts: Set<string>;
  token: string | null;
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];
const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

export function isLoopback(host: string): boolean {
  return ["localhost", "127.0.0.1", "::1", "[::1]"].includes(host.toLowerCase());
}

/** The Host headers a browser sends for this server: loopback names and the bound address, with the port. */
export function allowedHosts(boundHost: string, port: number): Set<string> {
  const bound = boundHost.includes(":") && !boundHost.startsWith("[") ? `[${boundHost}]` : boundHost;
  const names = [...LOOPBACK_NAMES, ...(WILDCARDS.has(bound) ? [] : [bound.toLowerCase()])];
  return new Set(names.flatMap((name) => (port === 80 ? [`${name}:80`, name] : [`${name}:${port}`])));
}

/** Why the request may not be answered (status and message), or null when it may. */
export function refusal(req: IncomingMessage, access: ServeAccess): { status: number; error: string } | null {
  const host = (req.headers.host ?? "").toLowerCase();
  if (!access.hosts.has(host))
    return { status: 403, error: `Host "${host}" is not this server's (expected one of ${[...access.hosts].join(", ")})` };
  if (access.token === null) return null;
  const given = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim() ?? "";
  return sameSecret(given, access.token) ? null : { status: 401, error: "a valid token is required: Authorization: Bearer <token>" };
}

/** Constant-time comparison (of digests, so lengths do not leak either). */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
