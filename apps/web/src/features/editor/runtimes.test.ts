import { LANGUAGES, type Runtime } from "@ensemble/protocol";
import { describe, expect, it } from "vitest";
import { pickerLanguages } from "./runtimes";

const records = [LANGUAGES.javascript, LANGUAGES.python];
const node: Runtime = { language: "javascript", version: "20.1.0", aliases: [], runtime: "node" };

describe("pickerLanguages", () => {
  it("offers the records the server runs, in the records' order, with their versions", () => {
    const python: Runtime = { language: "python", version: "3.11.2", aliases: [] };
    expect(pickerLanguages([python, node], "javascript", records)).toEqual([
      { record: LANGUAGES.javascript, version: "20.1.0" },
      { record: LANGUAGES.python, version: "3.11.2" },
    ]);
  });

  it("knows a Piston server's runtime by an alias of the record", () => {
    const python3: Runtime = { language: "python3", version: "3.12.0", aliases: [] };
    expect(pickerLanguages([python3], "python", records).map((l) => l.version)).toEqual(["3.12.0"]);
  });

  it("leaves out what the server cannot run, except the session's own language", () => {
    expect(pickerLanguages([node], "javascript", records).map((l) => l.record.id)).toEqual(["javascript"]);
    expect(pickerLanguages([node], "python", records).map((l) => [l.record.id, l.version])).toEqual([
      ["javascript", "20.1.0"],
      ["python", undefined],
    ]);
  });

  it("offers every record until the list arrives", () => {
    expect(pickerLanguages(undefined, "javascript", records)).toHaveLength(2);
  });
});
