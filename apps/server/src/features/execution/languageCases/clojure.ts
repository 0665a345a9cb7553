import type { LanguageCases } from "./cases";

export default {
  echo: `(require '[clojure.string :as str])
(let [line (read-line)]
  (println (str "Hello, " line "!"))
  (println (str/join " " *command-line-args*))
  (flush)
  (System/exit 3))
`,
  broken: { source: '(println "a")\n(println "b"))\n', line: 2 },
} satisfies LanguageCases;
