import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";

// Who may use the console. The Host check (access.ts) comes first, for everything. Then:
// - the JSON API reads as it always did: open on loopback without a configured token, else
//   `Authorization: Bearer <token>`;
// - pages and actions need a login: the token, given once (the link `serve` prints, or the form),
//   is exchanged for an HttpOnly, SameSite=Strict cookie naming a login kept in this process;
// - an action (a POST) also needs that login's CSRF token in a header, and a same-origin Origin when
//   the browser sends one; API clients act with the bearer token instead, which no page can send.
// The console's token is the configured one, or one made at start (printed in the login link):
// pages and actions are never open, even on loopback.

const COOKIE = "hatloop_console";
/** Logins kept at most (the oldest go first): a login is a browser, not a request. */
const MAX_LOGINS = 1_000;

export interface Login {
  csrf: string;
}

export class ConsoleAuth {
  private readonly logins = new Map<string, Login>();

  /**
   * @param token the console's token (configured or made at start)
   * @param apiOpen the JSON API reads without a token (loopback, none configured)
   */
  constructor(
    readonly token: string,
    private readonly apiOpen: boolean,
  ) {}

  static generateToken(): string {
    return randomBytes(24).toString("base64url");
  }

  /** The login of this request's cookie, if any. */
  login(c: Context): Login | null {
    const key = getCookie(c, COOKIE);
    return key ? (this.logins.get(key) ?? null) : null;
  }

  bearer(c: Context): boolean {
    const given = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1]?.trim();
    return given !== undefined && sameSecret(given, this.token);
  }

  /** Exchanges the token for a login cookie; false when the token is wrong. */
  logIn(c: Context, token: string): boolean {
    if (!sameSecret(token, this.token)) return false;
    const key = randomBytes(32).toString("base64url");
    this.logins.set(key, { csrf: randomBytes(24).toString("base64url") });
    if (this.logins.size > MAX_LOGINS) this.logins.delete(this.logins.keys().next().value!);
    setCookie(c, COOKIE, key, { httpOnly: true, sameSite: "Strict", path: "/" });
    return true;
  }

  /** Whether a GET of the JSON API may be answered. */
  mayReadApi(c: Context): boolean {
    return this.apiOpen || this.bearer(c) || this.login(c) !== null;
  }

  /**
   * Why a POST may not be done, or null when it may: the bearer token, or a login with its CSRF
   * token and no foreign Origin.
   */
  actionRefusal(c: Context): string | null {
    if (this.bearer(c)) return null;
    const login = this.login(c);
    if (!login) return "log in first: open the link hatloop serve printed, or send Authorization: Bearer <token>";
    const origin = c.req.header("origin");
    if (origin !== undefined && new URL(origin).host !== (c.req.header("host") ?? "").toLowerCase())
      return `a request from ${origin} may not act here`;
    const csrf = c.req.header("x-hatloop-csrf") ?? "";
    return sameSecret(csrf, login.csrf) ? null : "the page's CSRF token is missing or stale: reload the page";
  }
}

/** Constant-time comparison (of digests, so lengths do not leak either). */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
