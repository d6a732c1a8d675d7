import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createProviderModel } from "./provider-model.js";

// Credentials that exist but whose access token could not be fetched are not "no Google
// credentials": offline, the person must fix the network, not log in again; refused, they must
// renew them. Real Application Default Credentials through google-auth-library: an external-account
// (workload identity) file, whose token exchange URL can point at a name that never resolves
// (RFC 2606's .invalid) or at a local server that refuses the token.

const MODEL = "claude-sonnet-4-5@20250929";
const env = { CLOUD_ML_REGION: "us-east5", ANTHROPIC_VERTEX_PROJECT_ID: "proj-1", ANTHROPIC_VERTEX_BASE_URL: "http://127.0.0.1:9/v1" };

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** An ADC file of a workload-identity credential whose token comes from `tokenUrl`; HOME has no gcloud login. */
function credentialsAt(tokenUrl: string): void {
  const dir = mkdtempSync(join(tmpdir(), "hatloop-adc-"));
  writeFileSync(join(dir, "subject-token"), "a-subject-token");
  const file = join(dir, "adc.json");
  writeFileSync(
    file,
    JSON.stringify({
      type: "external_account",
      audience: "//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/q",
      subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
      token_url: tokenUrl,
      credential_source: { file: join(dir, "subject-token") },
    }),
  );
  vi.stubEnv("GOOGLE_APPLICATION_CREDENTIALS", file);
  vi.stubEnv("HOME", dir);
  vi.stubEnv("METADATA_SERVER_DETECTION", "none");
}

describe("Vertex AI credentials whose token cannot be had", () => {
  it("offline (the token service's name does not resolve): said as the network, not as missing credentials", async () => {
    credentialsAt("https://sts.hatloop-test.invalid/v1/token");
    const made = createProviderModel({ provider: "vertex", model: MODEL, env });
    await expect(made).rejects.toThrow(
      /^Google credentials for Vertex AI were found, but no access token could be fetched \(.*(ENOTFOUND|EAI_AGAIN).*\): check the network connection/,
    );
  });

  it("refused by the token service: the credentials must be renewed", async () => {
    server = createServer((_req, res) => {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "invalid_grant", error_description: "The subject token has expired." }));
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    credentialsAt(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/token`);
    const made = createProviderModel({ provider: "vertex", model: MODEL, env });
    await expect(made).rejects.toThrow(
      /^Google refused the credentials for Vertex AI \(.*invalid_grant.*\); renew them: gcloud auth application-default login, or a new key in GOOGLE_APPLICATION_CREDENTIALS$/,
    );
  });

  it("none at all: no Google credentials, as before", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hatloop-adc-"));
    vi.stubEnv("GOOGLE_APPLICATION_CREDENTIALS", "");
    vi.stubEnv("HOME", dir);
    vi.stubEnv("METADATA_SERVER_DETECTION", "none");
    await expect(createProviderModel({ provider: "vertex", model: MODEL, env })).rejects.toThrow(
      /^no Google credentials for Vertex AI \(Could not load the default credentials\..*\); run gcloud auth application-default login/,
    );
  });
});
