import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Ruby on Debian's MRI. */
export const ruby = {
  id: "ruby",
  name: "Ruby",
  aliases: ["ruby3", "rb"],
  extensions: ["rb"],
  mainFile: "main.rb",
  starter: '# Welcome to Ensemble: edit together, run, review.\nputs "Hello, world!"\n',
  monaco: "ruby",
  iconColor: "#cc342d",
  debianPackages: ["ruby"],
  install: "default",
  run: { command: "ruby", args: ["{file}"] },
  // "ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]"
  version: { command: "ruby", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
