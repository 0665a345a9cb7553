import { describe, expect, it } from "vitest";
import { DocumentAtSchema, languageServerOf, textDigest } from "./languageServers";

describe("languageServerOf", () => {
  it("serves C and C++ sources and headers with clangd, by extension, case-insensitively", () => {
    for (const path of ["src/main.c", "a/b.H", "x.cpp", "x.cc", "x.hpp", "lib/v.CXX"]) {
      expect(languageServerOf(path)).toBe("clangd");
    }
  });

  it("serves nothing else, nor a folder's dot", () => {
    for (const path of ["src/main.js", "main.py", "Makefile", "src.c/readme", "c", ".c"]) {
      expect(languageServerOf(path)).toBeUndefined();
    }
  });
});

describe("textDigest", () => {
  it("is the same for the same text and differs for a changed one, length included", () => {
    const text = "int main(void) { return 0; }\n";
    expect(textDigest(text)).toBe(textDigest(`${text}`));
    expect(textDigest(text)).not.toBe(textDigest(text.replace("0", "1")));
    expect(textDigest("")).toBe("811c9dc5:0");
    expect(textDigest("é😀")).toMatch(/:3$/);
  });

  it("is what a request's digest must look like", () => {
    const request = { sessionId: "abcdefghijkl", path: "src/a.c", digest: textDigest("x") };
    expect(DocumentAtSchema.safeParse(request).success).toBe(true);
    expect(DocumentAtSchema.safeParse({ ...request, digest: "nope" }).success).toBe(false);
  });
});
