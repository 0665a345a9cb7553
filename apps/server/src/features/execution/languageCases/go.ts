import type { LanguageCases } from "./cases";

export default {
  echo: `package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	line, _ := bufio.NewReader(os.Stdin).ReadString('\\n')
	fmt.Printf("Hello, %s!\\n", strings.TrimRight(line, "\\r\\n"))
	fmt.Println(strings.Join(os.Args[1:], " "))
	os.Exit(3)
}
`,
  broken: {
    source: `package main

import "fmt"

func main() {
	fmt.Println(missing)
}
`,
    line: 6,
  },
} satisfies LanguageCases;
