import type { LanguageRecord } from "./record";
import { coerceVersion } from "./version";

/** Go on Debian's toolchain: the entry's package (every `.go` of its folder) is built. */
export const go = {
  id: "go",
  name: "Go",
  aliases: ["go", "golang"],
  extensions: ["go"],
  mainFile: "main.go",
  starter:
    '// Welcome to Ensemble: edit together, run, review.\npackage main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("Hello, world!")\n}\n',
  monaco: "go",
  iconColor: "#00add8",
  debianPackages: ["golang-go"],
  install: "default",
  // `go build` takes a package by a path relative to where it runs (an absolute one is refused
  // in GOPATH mode, and Go 1.19 has no -C), so it runs in the entry's folder: that folder's
  // package, no more, its _test.go files left out as go build does.
  compile: { command: "sh", args: ["-c", 'cd "$1" && exec go build -o "$2/main" .', "go", "{dir}", "{out}"] },
  run: { command: "{out}/main", args: [] },
  // GOPATH mode: no go.mod needed, nothing fetched; caches in the run's own /tmp; no cgo (no C
  // compiler needed, and `cc` is an /etc/alternatives link the sandbox does not have).
  env: {
    GO111MODULE: "off",
    GOPATH: "/tmp/go",
    GOCACHE: "/tmp/go-cache",
    GOPROXY: "off",
    CGO_ENABLED: "0",
  },
  version: { command: "go", args: ["version"], parse: coerceVersion },
} as const satisfies LanguageRecord;
