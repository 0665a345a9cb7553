import { monaco } from "../../../ui/monaco";
import { completionsAllowed } from "../settings";
import { useServiceStatus } from "../status";
import type { LanguageService } from "../types";
import type { RunningTypeScript } from "./languageService";

// As languageService.ts names them; not imported from there, which is the lazy chunk.
const NAME = "TypeScript";
const LANGUAGES = ["javascript", "typescript"];

/**
 * JavaScript and TypeScript in the browser, from Monaco's TypeScript worker. Only this file is
 * in the editor's chunk; the rest loads when the editor first shows a JS or TS file, and the worker
 * (about 1.1 MB brotli) and Node's types each come as chunks of their own.
 */
export const typescriptService: LanguageService = {
  name: NAME,
  languages: LANGUAGES,
  async start(context) {
    useServiceStatus.getState().set(NAME, "loading");
    const running = import("./languageService").then((code) => code.startTypeScript(context));
    // Registered before the code arrives, so a completion asked for while the service warms up
    // waits for it (Monaco shows "Loading...") instead of answering "No suggestions".
    const completions = registerCompletions(running);
    try {
      const service = await running;
      return {
        dispose() {
          completions.dispose();
          service.dispose();
        },
      };
    } catch (error) {
      completions.dispose();
      useServiceStatus.getState().set(NAME, "failed");
      throw error;
    }
  },
};

function registerCompletions(running: Promise<RunningTypeScript>): monaco.IDisposable {
  let service: RunningTypeScript | null = null;
  void running.then(
    (started) => {
      service = started;
    },
    () => undefined,
  );
  const selector = LANGUAGES.map((language) => ({ language, scheme: "file" }));
  return monaco.languages.registerCompletionItemProvider(selector, {
    triggerCharacters: ["."],
    async provideCompletionItems(model, position, context, token) {
      // Switched off (by this person or, for everyone, by the host): no list from us.
      if (!completionsAllowed()) return { suggestions: [] };
      const started = await running;
      if (token.isCancellationRequested || !completionsAllowed()) return undefined;
      return started.suggest.provideCompletionItems(model, position, context, token);
    },
    resolveCompletionItem(item, token) {
      return service ? service.suggest.resolveCompletionItem(item, token) : item;
    },
  });
}
