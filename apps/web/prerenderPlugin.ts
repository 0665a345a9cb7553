import { createServer, type Plugin, type Rollup } from "vite";

const ROOT_ELEMENT = '<div id="root"></div>';
/** The bare page (the nav bar, a spinner); apps/server's webApp() answers unprerendered paths with it. */
const SHELL_FILE = "app.html";
/** The editor screen's module and the paths that show it (App.tsx's EDITOR_PATH). */
const EDITOR_MODULE = "/src/features/editor/EditorPage.tsx";
const EDITOR_PATH = "/code-editor-dashboard/";

interface PrerenderModule {
  PRERENDERED_PAGES: readonly { path: string; file: string; isSignedOutOnly: boolean }[];
  renderPage: (path: string) => Promise<string>;
  renderShell: () => Promise<string>;
}

/** Renders every prerendered page in Node through Vite's SSR loader, once per build. */
async function renderPages(root: string): Promise<{ file: string; root: string }[]> {
  const server = await createServer({
    configFile: false,
    root,
    logLevel: "error",
    appType: "custom",
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  try {
    const module = (await server.ssrLoadModule("/src/prerender.tsx")) as Partial<PrerenderModule>;
    const { PRERENDERED_PAGES: pages, renderPage, renderShell } = module;
    if (!pages || typeof renderPage !== "function" || typeof renderShell !== "function") {
      throw new Error("src/prerender.tsx exports no PRERENDERED_PAGES, renderPage() and renderShell()");
    }
    const rendered = [];
    // One at a time: the pages share the app's module-level stores.
    for (const page of pages) {
      const markup = await renderPage(page.path);
      const signedOut = page.isSignedOutOnly ? " data-signed-out-only" : "";
      rendered.push({
        file: page.file,
        root: `<div id="root" inert data-page="${page.path}"${signedOut}>${markup}</div>`,
      });
    }
    // Not inert: the app renders afresh over it (no hydration to lift that), and its links work as they are.
    rendered.push({ file: SHELL_FILE, root: `<div id="root" data-shell>${await renderShell()}</div>` });
    return rendered;
  } finally {
    await server.close();
  }
}

/**
 * Writes each page of src/prerender.tsx's list into its own copy of index.html, its markup in
 * #root (`data-page`, its path, tells index.html's inline script on which path it may show).
 * #root stays inert until startApp.tsx has hydrated it, since a click before then would be
 * lost. index.html is the landing page; the other files (and app.html, the bare page for every
 * other path) are emitted beside it before the
 * build compresses its output, so they get their brotli and gzip copies too.
 */
export function prerenderPages(root: string): Plugin {
  let others: { file: string; html: string }[] = [];
  return {
    name: "ensemble:prerender-pages",
    apply: "build",
    // After Vite's HTML plugin has emitted index.html (it calls transformIndexHtml from its
    // generateBundle), before the compression that wraps a later plugin's generateBundle.
    enforce: "post",
    async transformIndexHtml(html) {
      if (!html.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT}`);
      const pages = await renderPages(root);
      const landing = pages.find((page) => page.file === "index.html");
      if (!landing) throw new Error("src/prerender.tsx has no page for index.html");
      // app.html among them, what the server sends for every other path: no page's markup,
      // which would only be cleared, nor the images it preloads, fetched before the app's script.
      others = pages
        .filter((page) => page !== landing)
        .map((page) => ({ file: page.file, html: html.replace(ROOT_ELEMENT, () => page.root) }));
      return html.replace(ROOT_ELEMENT, () => landing.root);
    },
    generateBundle(_options, bundle) {
      const preload = editorPreload(bundle);
      for (const { file, html } of others) {
        const source = file === SHELL_FILE ? html.replace("</head>", () => `${preload}</head>`) : html;
        this.emitFile({ type: "asset", fileName: file, source });
      }
      others = [];
    },
  };
}

/**
 * An inline script for app.html that, on an editor path only, asks at once for the editor
 * screen's chunk and the chunks it imports (modulepreload), which the app would otherwise
 * request only once its entry had run and the router had resolved the lazy page: one round
 * trip and the entry's evaluation earlier (bench/lighthouse). Other pages served app.html fetch
 * nothing more. The server's CSP allows it by its hash like every inline script of the build.
 */
function editorPreload(bundle: Rollup.OutputBundle): string {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === "chunk");
  const editor = chunks.find((c) => c.facadeModuleId?.endsWith(EDITOR_MODULE));
  const entry = chunks.find((c) => c.isEntry);
  if (!editor || !entry) throw new Error(`the build has no entry or no chunk for ${EDITOR_MODULE}`);
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  /** A chunk's file and every chunk it imports statically, transitively. */
  const closure = (start: Rollup.OutputChunk) => {
    const seen = new Set<string>();
    const visit = (chunk: Rollup.OutputChunk) => {
      if (seen.has(chunk.fileName)) return;
      seen.add(chunk.fileName);
      for (const file of chunk.imports) {
        const imported = byFile.get(file);
        if (imported) visit(imported);
      }
    };
    visit(start);
    return seen;
  };
  // What the entry loads anyway is already asked for by the page's own tags.
  const loaded = closure(entry);
  const files = [...closure(editor)].filter((file) => !loaded.has(file)).map((file) => `/${file}`);
  return `<script>if(location.pathname.startsWith(${JSON.stringify(EDITOR_PATH)}))for(const href of ${JSON.stringify(files)})document.head.append(Object.assign(document.createElement("link"),{rel:"modulepreload",href,crossOrigin:""}))</script>`;
}
