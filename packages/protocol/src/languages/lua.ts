import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Lua 5.4 on Debian's reference interpreter. */
export const lua = {
  id: "lua",
  name: "Lua",
  aliases: [],
  extensions: ["lua"],
  mainFile: "main.lua",
  starter: '-- Welcome to Ensemble: edit together, run, review.\nprint("Hello, world!")\n',
  monaco: "lua",
  iconColor: "#000080",
  debianPackages: ["lua5.4"],
  install: "default",
  // Not `lua`: that is an /etc/alternatives link, which the sandbox (no /etc) cannot follow.
  run: { command: "lua5.4", args: ["{file}"] },
  // "Lua 5.4.4  Copyright (C) 1994-2022 Lua.org, PUC-Rio"
  version: { command: "lua5.4", args: ["-v"], parse: coerceVersion },
} as const satisfies LanguageRecord;
