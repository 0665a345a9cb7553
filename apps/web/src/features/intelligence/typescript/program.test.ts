import { TypeScriptWorker } from "monaco-editor/languages/features/typescript/tsWorker";
import { describe, expect, it } from "vitest";
import { compilerOptions, runsOnNode } from "./compilerOptions";
import { NODE_TYPES } from "./nodeTypes";

// Monaco's own worker class, run in Node over fake mirror models: the program our options make,
// as the browser's worker builds it. Loading TypeScript (9 MB) takes seconds, and a first check
// with Node's types parses 2.4 MB more.
const CHECK_MS = 60_000;

interface Worker {
  getSemanticDiagnostics(file: string): Promise<{ messageText: unknown }[]>;
  getQuickInfoAtPosition(
    file: string,
    offset: number,
  ): Promise<{ displayParts: { text: string }[] } | undefined>;
}

function program(files: Record<string, string>, isNode: boolean): Worker {
  const models = Object.entries(files).map(([path, text]) => ({
    uri: { toString: () => `file:///${path}`, path: `/${path}` },
    version: 1,
    getValue: () => text,
  }));
  const extraLibs = Object.fromEntries(
    Object.entries(isNode ? NODE_TYPES : {}).map(([path, content]) => [path, { content, version: 1 }]),
  );
  return new TypeScriptWorker(
    { getMirrorModels: () => models },
    { compilerOptions: compilerOptions(isNode), extraLibs },
  );
}

async function errors(worker: Worker, path: string): Promise<string[]> {
  const found = await worker.getSemanticDiagnostics(`file:///${path}`);
  return found.map((d) =>
    typeof d.messageText === "string" ? d.messageText : JSON.stringify(d.messageText),
  );
}

async function typeAt(worker: Worker, path: string, text: string, word: string): Promise<string> {
  const info = await worker.getQuickInfoAtPosition(`file:///${path}`, text.indexOf(word) + 1);
  return info?.displayParts.map((part) => part.text).join("") ?? "";
}

describe("the workspace's program", { timeout: CHECK_MS }, () => {
  it("runs JavaScript and TypeScript sessions on Node, not Python's", () => {
    expect(runsOnNode("javascript")).toBe(true);
    expect(runsOnNode("typescript")).toBe(true);
    expect(runsOnNode("python")).toBe(false);
  });

  it("resolves imports across files, with or without an extension, and types them", async () => {
    const main =
      'import { add } from "./lib/util";\nimport { twice } from "./lib/twice.js";\nimport { half } from "./lib/util.ts";\nadd(1, "two");\n';
    const worker = program(
      {
        "src/main.ts": main,
        "src/lib/util.ts":
          "export function add(a: number, b: number) { return a + b; }\nexport const half = (n: number) => n / 2;\n",
        "src/lib/twice.ts": "export const twice = (n: number) => n * 2;\n",
      },
      true,
    );
    expect(await errors(worker, "src/main.ts")).toEqual([
      "Argument of type 'string' is not assignable to parameter of type 'number'.",
    ]);
  });

  it("lets JavaScript require another file and Node's modules, typed; checks it only when asked", async () => {
    const main =
      'const { twice } = require("./util");\nconst fs = require("fs");\nconst text = fs.readFileSync("a", "utf8");\nconst doubled = twice(2);\n';
    const files = { "src/main.js": main, "src/util.js": "exports.twice = (n) => n * 2;\n" };
    const node = program(files, true);
    expect(await typeAt(node, "src/main.js", main, "text")).toBe("const text: string");
    expect(await typeAt(node, "src/main.js", main, "doubled")).toBe("const doubled: number");
    expect(await errors(node, "src/main.js")).toEqual([]);
    // Without Node's types `require("fs")` is nothing known.
    const bare = program(files, false);
    expect(await typeAt(bare, "src/main.js", main, "text")).toBe("const text: any");

    const checked = program({ "src/main.js": "// @ts-check\nconst n = 1;\nn.push(2);\n" }, true);
    expect(await errors(checked, "src/main.js")).toEqual(["Property 'push' does not exist on type '1'."]);
  });

  it("gives a Node session Node's globals and no DOM", async () => {
    const worker = program(
      { "src/main.ts": "console.log(process.argv, __dirname);\ndocument.title = 'x';\n" },
      true,
    );
    expect(await errors(worker, "src/main.ts")).toEqual([
      expect.stringContaining("Cannot find name 'document'."),
    ]);
  });
});
