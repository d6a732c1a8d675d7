import { messageOf } from "../retry/with-retries.js";
import { ProviderSetupError } from "./cloud-settings.js";

// The clouds' SDKs resolve credentials on each request (SigV4 signing for Bedrock, a Google OAuth
// token for Vertex) and treat a failure as a connection error worth retrying, so missing credentials
// would cost a run its whole retry budget. The probe resolves them once at start through the SDK's
// own request path: the client's fetch answers the first request itself, after signing, unsent.

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
  async check(send: () => Promise<unknown>, missing: (cause: string) => string): Promise<void> {
    try {
      await send();
    } catch (error) {
      throw new ProviderSetupError(missing(causeOf(error)));
    } finally {
      this.probing = false;
    }
  }
}

/** The innermost useful message: the SDK's wrapper says only that resolution failed. */
function causeOf(error: unknown): string {
  let deepest = messageOf(error);
  for (let e = error instanceof Error ? error.cause : undefined, depth = 0; e !== undefined && depth < 5; depth++) {
    const message = messageOf(e);
    if (message) deepest = message;
    e = e instanceof Error ? e.cause : undefined;
  }
  return deepest.split("\n")[0]!.trim();
}
