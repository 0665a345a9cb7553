import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** PHP on Debian's CLI. */
export const php = {
  id: "php",
  name: "PHP",
  aliases: [],
  extensions: ["php"],
  mainFile: "main.php",
  starter: '<?php\n// Welcome to Ensemble: edit together, run, review.\necho "Hello, world!\\n";\n',
  monaco: "php",
  iconColor: "#777bb4",
  debianPackages: ["php-cli"],
  install: "default",
  // The sandbox has no /etc/php: PHP's built-in defaults would print errors on stdout, mixed
  // with the program's output; on stderr, as every other language, they stay apart.
  run: { command: "php", args: ["-d", "display_errors=stderr", "{file}"] },
  // "PHP 8.2.36 (cli) (built: ...)"
  version: { command: "php", args: ["--version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
