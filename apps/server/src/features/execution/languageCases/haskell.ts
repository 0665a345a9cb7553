import type { LanguageCases } from "./cases";

export default {
  echo: `import System.Environment (getArgs)
import System.Exit (ExitCode (ExitFailure), exitWith)
import System.IO (isEOF)

main :: IO ()
main = do
  eof <- isEOF
  line <- if eof then return "" else getLine
  putStrLn ("Hello, " ++ filter (/= '\\r') line ++ "!")
  args <- getArgs
  putStrLn (unwords args)
  exitWith (ExitFailure 3)
`,
  broken: {
    source: `main :: IO ()
main = do
  putStrLn missing
`,
    line: 3,
  },
} satisfies LanguageCases;
