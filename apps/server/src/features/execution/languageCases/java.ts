import type { LanguageCases } from "./cases";

export default {
  echo: `import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Main {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String line = in.readLine();
    System.out.println("Hello, " + (line == null ? "" : line) + "!");
    System.out.println(String.join(" ", args));
    System.exit(3);
  }
}
`,
  broken: {
    source: `public class Main {
  public static void main(String[] args) {
    System.out.println(missing);
  }
}
`,
    line: 3,
  },
} satisfies LanguageCases;
