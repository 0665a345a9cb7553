import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local server speaking the part of Piston's v2 HTTP API our runner forwards to, under
 * `/api/v2`: the runtime list, and an execute that echoes the first file as stdout (or
 * answers with the status it is told to). Every execute body it received is kept.
 */
export async function startFakePiston() {
  const state = { requests: [] as unknown[], failWith: undefined as number | undefined };
  const server = http.createServer((req, res) => {
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "GET" && req.url === "/api/v2/runtimes") {
      return json(200, [
        { language: "javascript", version: "18.15.0", aliases: ["js", "node-javascript"], runtime: "node" },
        { language: "python", version: "3.10.0", aliases: ["py", "py3", "python3"] },
      ]);
    }
    if (req.method === "POST" && req.url === "/api/v2/execute") {
      let text = "";
      req.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      req.on("end", () => {
        const body = JSON.parse(text) as { language: string; files: { content: string }[] };
        state.requests.push(body);
        if (state.failWith) return json(state.failWith, { message: "fake failure" });
        if (body.language === "cobol") return json(400, { message: "cobol-* runtime is unknown" });
        const stdout = body.files[0]?.content ?? "";
        json(200, {
          language: body.language,
          version: "18.15.0",
          run: { stdout, stderr: "", output: stdout, code: 0, signal: null },
        });
      });
      return;
    }
    json(404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
  return {
    url,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
