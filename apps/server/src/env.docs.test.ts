import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EnvSchema } from "./env";

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

/** Defaults that depend on the machine (host name, cores, install path): the docs say them in words. */
const MACHINE_DEFAULTS = new Set(["ALLOWED_HOSTS", "NODE_ID", "RUN_CONCURRENCY", "WEB_DIST"]);

/** Each table row whose first cell is one variable in backticks, as [name, default cell]. */
function tableRows(markdown: string): [string, string][] {
  const rows: [string, string][] = [];
  for (const line of markdown.split("\n")) {
    const row = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|([^|]*)\|/.exec(line);
    if (row?.[1] && row[2] !== undefined) rows.push([row[1], row[2].trim()]);
  }
  return rows;
}

/** The schema's default as the docs write it, or undefined when the variable has none. */
function shownDefault(name: keyof typeof EnvSchema.shape): string | undefined {
  const value: unknown = EnvSchema.shape[name].parse(undefined);
  if (value === undefined) return undefined;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const variables = Object.keys(EnvSchema.shape) as (keyof typeof EnvSchema.shape)[];

/** Fails unless every row names a variable of the schema and shows its static default. */
function expectRowsMatchSchema(rows: [string, string][], doc: string) {
  const unknown = rows.map(([name]) => name).filter((name) => !(name in EnvSchema.shape));
  expect(unknown, `${doc} lists variables env.ts does not read`).toEqual([]);
  for (const [name, cell] of rows) {
    const fallback = shownDefault(name as keyof typeof EnvSchema.shape);
    if (fallback === undefined || MACHINE_DEFAULTS.has(name)) continue;
    expect(cell, `${doc}: the default of ${name}`).toContain(`\`${fallback}\``);
  }
}

describe("docs/configuration.md against the environment schema (env.ts)", () => {
  const rows = tableRows(read("docs/configuration.md"));

  it("lists every variable of the schema once, and nothing else", () => {
    const names = rows.map(([name]) => name);
    const missing = variables.filter((name) => !names.includes(name));
    const rowsToAdd = missing.map((name) => {
      const fallback = shownDefault(name);
      return `| \`${name}\` | ${fallback === undefined ? "unset" : `\`${fallback}\``} | … |`;
    });
    expect(rowsToAdd, "variables of env.ts missing from docs/configuration.md: add these rows").toEqual([]);
    const twice = names.filter((name, i) => names.indexOf(name) !== i);
    expect(twice, "variables listed twice").toEqual([]);
    expect(names.toSorted()).toEqual([...variables].toSorted());
  });

  it("shows each static default as the schema has it", () => {
    expectRowsMatchSchema(rows, "docs/configuration.md");
  });

  it("keeps the README's short list of settings true to the schema", () => {
    const readme = tableRows(read("README.md"));
    expect(readme.length).toBeGreaterThan(0);
    expectRowsMatchSchema(readme, "README.md");
  });
});
