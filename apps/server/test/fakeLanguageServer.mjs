#!/usr/bin/env node
// A stand-in for clangd in the integration tests when it is not installed: a real LSP server
// over stdio (Content-Length framing), run in the real sandbox like clangd. It diagnoses every
// `undeclared_…` identifier, completes identifiers of the open files, hovers and finds the
// first occurrence of a word. `SLOW_ANSWER` in a file delays its completions by 1.5 s, and
// `CRASH_NOW` makes the server exit, so the tests can reach those paths; `ensemble/probe`
// answers what the server can see and do from inside its sandbox. Self-contained: the
// sandbox has no node_modules.
import { readdirSync, writeFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { dirname } from "node:path";

const docs = new Map();
let buffer = Buffer.alloc(0);

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }));
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

process.stdin.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())?.[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
    buffer = buffer.subarray(end + 4 + length);
    handle(message);
  }
});
process.stdin.on("end", () => process.exit(0));

const words = (text) => text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
const lines = (text) => text.split("\n");

function wordAt(text, { line, character }) {
  const row = lines(text)[line] ?? "";
  let start = character;
  while (start > 0 && /\w/.test(row[start - 1])) start -= 1;
  let end = character;
  while (end < row.length && /\w/.test(row[end])) end += 1;
  return { word: row.slice(start, end), prefix: row.slice(start, character), start, end };
}

function diagnose(uri) {
  const doc = docs.get(uri);
  if (doc.text.includes("CRASH_NOW")) process.exit(3);
  const diagnostics = [];
  lines(doc.text).forEach((row, line) => {
    for (const match of row.matchAll(/undeclared_\w+/g)) {
      diagnostics.push({
        range: {
          start: { line, character: match.index },
          end: { line, character: match.index + match[0].length },
        },
        severity: 1,
        message: `use of undeclared identifier '${match[0]}'`,
      });
    }
  });
  setTimeout(
    () =>
      send({ method: "textDocument/publishDiagnostics", params: { uri, version: doc.version, diagnostics } }),
    20,
  );
}

function answer(id, result, delay = 0) {
  if (delay) setTimeout(() => send({ id, result }), delay);
  else send({ id, result });
}

function handle({ id, method, params }) {
  switch (method) {
    case "initialize":
      return answer(id, {
        capabilities: {
          textDocumentSync: 1,
          completionProvider: { triggerCharacters: [".", ">"] },
          hoverProvider: true,
          definitionProvider: true,
          renameProvider: true,
          documentFormattingProvider: true,
        },
      });
    case "textDocument/didOpen":
      docs.set(params.textDocument.uri, {
        text: params.textDocument.text,
        version: params.textDocument.version,
      });
      return diagnose(params.textDocument.uri);
    case "textDocument/didChange":
      docs.set(params.textDocument.uri, {
        text: params.contentChanges.at(-1).text,
        version: params.textDocument.version,
      });
      return diagnose(params.textDocument.uri);
    case "textDocument/didClose":
      docs.delete(params.textDocument.uri);
      return;
    case "textDocument/completion": {
      const text = docs.get(params.textDocument.uri)?.text ?? "";
      const { prefix } = wordAt(text, params.position);
      const all = new Set([...docs.values()].flatMap((d) => words(d.text)));
      const items = [...all]
        .filter((w) => w.startsWith(prefix) && w !== prefix)
        .sort()
        .map((label) => ({ label, kind: 6 }));
      return answer(id, { isIncomplete: false, items }, text.includes("SLOW_ANSWER") ? 1500 : 0);
    }
    case "textDocument/hover": {
      const { word } = wordAt(docs.get(params.textDocument.uri)?.text ?? "", params.position);
      return answer(id, word ? { contents: { kind: "markdown", value: `fake hover: ${word}` } } : null);
    }
    case "textDocument/definition": {
      const { word } = wordAt(docs.get(params.textDocument.uri)?.text ?? "", params.position);
      for (const [uri, doc] of docs) {
        const found = lines(doc.text).findIndex((row) => new RegExp(`\\b${word}\\b`).test(row));
        if (word && found >= 0) {
          const character = lines(doc.text)[found].search(new RegExp(`\\b${word}\\b`));
          const range = {
            start: { line: found, character },
            end: { line: found, character: character + word.length },
          };
          return answer(id, [{ uri, range }]);
        }
      }
      return answer(id, []);
    }
    case "textDocument/rename": {
      const uri = params.textDocument.uri;
      const { word } = wordAt(docs.get(uri)?.text ?? "", params.position);
      const edits = [];
      lines(docs.get(uri)?.text ?? "").forEach((row, line) => {
        for (const m of row.matchAll(new RegExp(`\\b${word}\\b`, "g")))
          edits.push({
            range: { start: { line, character: m.index }, end: { line, character: m.index + word.length } },
            newText: params.newName,
          });
      });
      return answer(id, { changes: { [uri]: edits } });
    }
    case "textDocument/formatting":
    case "textDocument/signatureHelp":
      return answer(id, method === "textDocument/formatting" ? [] : null);
    case "ensemble/probe": {
      let canWrite = true;
      try {
        writeFileSync("/box/planted.c", "x");
      } catch {
        canWrite = false;
      }
      return answer(id, {
        interfaces: Object.keys(networkInterfaces()),
        canWriteWorkspace: canWrite,
        workspace: readdirSync("/box").sort(),
        uid: process.getuid(),
        siblings: readdirSync(dirname(process.argv[1])),
        etc: readdirSync("/etc"),
      });
    }
    case "shutdown":
      return answer(id, null);
    case "exit":
      return process.exit(0);
    default:
      if (id !== undefined) send({ id, error: { code: -32601, message: `unhandled ${method}` } });
  }
}
