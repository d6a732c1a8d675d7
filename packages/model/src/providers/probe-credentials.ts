import { messageOf } from "../retry/with-retries.js";
import { ProviderSetupError } from "./cloud-settings.js";

// The clouds' SDKs resolve credentials on each request (SigV4 signing for Bedrock, a Google OAuth
// token for Vertex) and treat a failure as a connection error worth retrying, so missing credentials
// would cost a run its whole retry budget. The probe resolves them once at start through the SDK's
// own request path: the client's fetch answers the first request itself, after signing, unsent.
//
// Resolving can fail three ways, each with its own remedy: there are no credentials (log in), the
// token service cannot be reached (the network: logging in again would not help), or it refused
// them (renew them). The SDKs wrap all three in the same "failed to acquire credentials".

/** What the person is told for each way resolving credentials failed; unreachable and refused default to missing. */
export interface CredentialWords {
  missing: (cause: string) => string;
  unreachable?: (cause: string) => string;
  refused?: (cause: string) => string;
}

/** The auth libraries' own words for finding no credentials at all (google-auth-library, the AWS chain). */
const NONE_FOUND = /Could not load the default credentials|Could not load credentials from any providers/i;
/** Node's and undici's codes for a request that never got an answer. */
const NETWORK_CODES = new Set([
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ECONNABORTED",
  "EPIPE",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);

export class CredentialProbe {
  private probing = true;

  /** The fetch to build the client with: answers locally while probing, then the network's. */
  readonly fetch: typeof fetch = (input, init) => {
    if (!this.probing) return fetch(input, init);
    return Promise.resolve(
      new Response(JSON.stringify({ id: "probe", type: "message", role: "assistant", content: [], usage: {} }), {
        headers: { "content-type": "application/json" },
      }),
    );
  };

  /** Runs one request the SDK signs or authorises but never sends; a credential failure becomes a ProviderSetupError. */
  async check(send: () => Promise<unknown>, words: CredentialWords): Promise<void> {
    try {
      await send();
    } catch (error) {
      const cause = causeOf(error);
      const say = { missing: words.missing, unreachable: words.unreachable ?? words.missing, refused: words.refused ?? words.missing };
      throw new ProviderSetupError(say[failureOf(error)](cause));
    } finally {
      this.probing = false;
    }
  }
}

/** Which way resolving failed, from the error and its causes. */
function failureOf(error: unknown): keyof Required<CredentialWords> {
  const chain = causesOf(error);
  if (chain.some((e) => NONE_FOUND.test(messageOf(e)))) return "missing";
  if (chain.some((e) => NETWORK_CODES.has(String(field(e, "code"))))) return "unreachable";
  const status = chain.map(httpStatusOf).find((s) => s !== null);
  if (status === undefined) return "missing";
  return status >= 500 ? "unreachable" : "refused";
}

/** The error and its causes, outermost first. */
function causesOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = error; e !== undefined && e !== null && chain.length < 8; e = field(e, "cause")) chain.push(e);
  return chain;
}

/** The HTTP status a token service answered with (gaxios: status, or the response's); null when none. */
function httpStatusOf(error: unknown): number | null {
  const status = field(error, "status") ?? field(field(error, "response"), "status");
  return typeof status === "number" && status >= 400 && status < 600 ? status : null;
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** The innermost useful message: the SDK's wrapper says only that resolution failed. */
function causeOf(error: unknown): string {
  let deepest = messageOf(error);
  for (const e of causesOf(error).slice(1, 6)) {
    const message = messageOf(e);
    if (message) deepest = message;
  }
  return deepest.split("\n")[0]!.trim();
}
