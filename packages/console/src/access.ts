import { hostname, networkInterfaces } from "node:os";

// Which requests `hatloop serve` answers at all. It binds to loopback, but a web page can still
// reach a loopback port through DNS rebinding (its own name resolving to 127.0.0.1): such a request
// carries the page's Host, so only the names of this server are accepted. Bound to every interface
// (0.0.0.0, ::), this server's names are the machine's: its addresses and host name, read again
// when a Host is not found (an address that changed since the start). Tokens: auth.ts.

export interface ServeAccess {
  /** Accepted Host headers (lower case, with the port); filled in once the port is known. */
  hosts: Set<string>;
  /** Reads the accepted Host headers again (the machine's addresses now); unset: they never change. */
  refresh?: () => Set<string>;
}

/** The machine's addresses and name, as a Host header carries them; what each interface has now. */
export interface OwnNames {
  addresses: Array<{ address: string; family: string }>;
  hostname: string;
}

function ownNames(): OwnNames {
  return { addresses: Object.values(networkInterfaces()).flatMap((list) => list ?? []), hostname: hostname() };
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];
const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

export function isLoopback(host: string): boolean {
  return ["localhost", "127.0.0.1", "::1", "[::1]"].includes(host.toLowerCase());
}

const bracketed = (address: string) => (address.includes(":") && !address.startsWith("[") ? `[${address}]` : address);

/**
 * The Host headers a browser sends for this server, with the port: loopback names and the bound
 * address; bound to every interface, also the machine's addresses (IPv4 only for 0.0.0.0) and name.
 */
export function allowedHosts(boundHost: string, port: number, own: OwnNames = ownNames()): Set<string> {
  const bound = bracketed(boundHost);
  const machine = WILDCARDS.has(bound)
    ? [
        ...own.addresses.filter((a) => bound !== "0.0.0.0" || a.family === "IPv4").map((a) => bracketed(a.address.split("%")[0]!)),
        own.hostname,
      ]
    : [bound];
  const names = [...LOOPBACK_NAMES, ...machine.map((name) => name.toLowerCase())];
  return new Set(names.flatMap((name) => (port === 80 ? [`${name}:80`, name] : [`${name}:${port}`])));
}

/** Whether binding `host` listens on every interface. */
export function isWildcard(host: string): boolean {
  return WILDCARDS.has(bracketed(host));
}

/** Why a request for `host` (its Host header) may not be answered, or null when it may. */
export function hostRefusal(host: string, access: ServeAccess): string | null {
  const name = host.toLowerCase();
  if (!access.hosts.has(name) && access.refresh) access.hosts = access.refresh();
  return access.hosts.has(name) ? null : `Host "${name}" is not this server's (expected one of ${[...access.hosts].join(", ")})`;
}
