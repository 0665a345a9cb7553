import { monaco } from "../../../../ui/monaco";
import { fileUri } from "../../../textModels/workspaceModels";
import { diagnosticsShown, useIntelligenceSettings } from "../../settings";
import { pathOfServerUri } from "./documents";
import type { JsonRpc } from "./jsonRpc";
import { type LspDiagnostic, parsePublishedDiagnostics } from "./lsp";
import { toMonacoRange } from "./providers";

const OWNER = "pyright";

function toSeverity(severity: number | undefined): monaco.MarkerSeverity {
  // LSP: 1 error, 2 warning, 3 information, 4 hint.
  if (severity === 2) return monaco.MarkerSeverity.Warning;
  if (severity === 3) return monaco.MarkerSeverity.Info;
  if (severity === 4) return monaco.MarkerSeverity.Hint;
  return monaco.MarkerSeverity.Error;
}

function toMarker(diagnostic: LspDiagnostic): monaco.editor.IMarkerData {
  const tags = (diagnostic.tags ?? []).flatMap((tag) =>
    tag === 1 ? [monaco.MarkerTag.Unnecessary] : tag === 2 ? [monaco.MarkerTag.Deprecated] : [],
  );
  return {
    ...toMonacoRange(diagnostic.range),
    severity: toSeverity(diagnostic.severity),
    message: diagnostic.message,
    source: "pyright",
    ...(diagnostic.code !== undefined ? { code: String(diagnostic.code) } : {}),
    tags,
  };
}

/**
 * pyright's diagnostics as markers on the workspace's models, kept per file so switching
 * diagnostics back on shows them again at once.
 */
export function showDiagnostics(rpc: JsonRpc): monaco.IDisposable {
  const latest = new Map<string, monaco.editor.IMarkerData[]>();
  const apply = (path: string) => {
    const model = monaco.editor.getModel(fileUri(path));
    if (model)
      monaco.editor.setModelMarkers(model, OWNER, diagnosticsShown() ? (latest.get(path) ?? []) : []);
  };
  rpc.onNotification("textDocument/publishDiagnostics", (raw) => {
    const published = parsePublishedDiagnostics(raw);
    const path = published && pathOfServerUri(published.uri);
    if (!published || path === null || path === undefined) return;
    latest.set(path, published.diagnostics.map(toMarker));
    apply(path);
  });
  const unsubscribe = useIntelligenceSettings.subscribe((now, before) => {
    if (now.diagnostics !== before.diagnostics) for (const path of latest.keys()) apply(path);
  });
  return {
    dispose: () => {
      unsubscribe();
      for (const path of latest.keys()) {
        const model = monaco.editor.getModel(fileUri(path));
        if (model) monaco.editor.setModelMarkers(model, OWNER, []);
      }
      latest.clear();
    },
  };
}
