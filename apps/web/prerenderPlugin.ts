import { createServer, type Plugin } from "vite";

const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Builds index.html with the landing page's markup in #root: src/prerender.tsx renders it in
 * Node through Vite's SSR loader, once per build. #root stays inert until startApp.tsx has
 * hydrated it, since a click before then would be lost.
 */
export function prerenderLanding(root: string): Plugin {
  return {
    name: "ensemble:prerender-landing",
    apply: "build",
    async transformIndexHtml(html) {
      if (!html.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT}`);
      const server = await createServer({
        configFile: false,
        root,
        logLevel: "error",
        appType: "custom",
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      let markup: string;
      try {
        const module = await server.ssrLoadModule("/src/prerender.tsx");
        const render: unknown = module.renderLanding;
        if (typeof render !== "function") throw new Error("src/prerender.tsx exports no renderLanding()");
        markup = String(render());
      } finally {
        await server.close();
      }
      return html.replace(ROOT_ELEMENT, `<div id="root" inert>${markup}</div>`);
    },
  };
}
