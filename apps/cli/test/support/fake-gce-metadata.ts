import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

// A fake Google Compute Engine metadata server: what google-auth-library asks when it finds no key
// file (GCE_METADATA_HOST points it here). It serves the default service account's access token
// and the project id, so a child process authenticates through the real Application Default
// Credentials path.

export interface FakeMetadata {
  /** For GCE_METADATA_HOST: host:port. */
  host: string;
  tokensServed(): number;
  close(): Promise<void>;
}

export async function startFakeGceMetadata(token: string, project: string): Promise<FakeMetadata> {
  let tokens = 0;
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    const headers = { "metadata-flavor": "Google" };
    if (req.headers["metadata-flavor"] !== "Google") {
      res.writeHead(403, headers).end("Missing Metadata-Flavor:Google header.");
      return;
    }
    if (path === "/computeMetadata/v1/instance/service-accounts/default/token") {
      tokens++;
      res.writeHead(200, { ...headers, "content-type": "application/json" });
      res.end(JSON.stringify({ access_token: token, expires_in: 3599, token_type: "Bearer" }));
    } else if (path === "/computeMetadata/v1/project/project-id") {
      res.writeHead(200, { ...headers, "content-type": "application/text" }).end(project);
    } else if (path === "/computeMetadata/v1/universe/universe-domain") {
      res.writeHead(200, { ...headers, "content-type": "application/text" }).end("googleapis.com");
    } else if (path === "/computeMetadata/v1/instance" || path === "/computeMetadata/v1/instance/") {
      res.writeHead(200, { ...headers, "content-type": "application/text" }).end("attributes/\nservice-accounts/\n");
    } else {
      res.writeHead(404, headers).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    tokensServed: () => tokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
