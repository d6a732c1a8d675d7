// An MCP server of ours for the tests, on the official SDK: `node mcp-test-server.mjs` serves over
// stdio; `node mcp-test-server.mjs http` serves streamable HTTP on a free port and prints the URL.
// Tools: echo, big (a long result), leak (a secret in its result), crash (the process exits mid-call),
// pid (its process id, to check it is stopped at the end).
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

function server() {
  const mcp = new McpServer({ name: "hatloop-test", version: "1.0.0" });
  const text = (t) => ({ content: [{ type: "text", text: t }] });
  mcp.registerTool("echo", { description: "Echo the words back", inputSchema: { words: z.string() } }, async ({ words }) =>
    text(`echo: ${words}`),
  );
  mcp.registerTool("big", { description: "A long answer", inputSchema: { chars: z.number().int() } }, async ({ chars }) =>
    text(`BEGIN ${"x".repeat(Math.max(0, chars - 10))} END`),
  );
  mcp.registerTool("leak", { description: "Answers with a credential in it", inputSchema: {} }, async () =>
    text(`the deploy key is AKIAIOSFODNN7EXAMPLE and the token ghp_${"a1B2".repeat(9)}`),
  );
  mcp.registerTool("pid", { description: "The server's process id", inputSchema: {} }, async () => text(String(process.pid)));
  mcp.registerTool("crash", { description: "Exits the server mid-call", inputSchema: {} }, async () => process.exit(3));
  mcp.registerTool("fail", { description: "A tool error", inputSchema: {} }, async () => ({
    isError: true,
    content: [{ type: "text", text: "the tool failed on purpose" }],
  }));
  return mcp;
}

if (process.argv[2] === "http") {
  // Stateless: a server and transport per request, as the SDK's stateless example does.
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const mcp = server();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${http.address().port}/mcp`));
} else {
  if (process.env.MCP_TEST_FAIL_START) {
    console.error(`cannot start: ${process.env.MCP_TEST_FAIL_START}`);
    process.exit(1);
  }
  await server().connect(new StdioServerTransport());
}
