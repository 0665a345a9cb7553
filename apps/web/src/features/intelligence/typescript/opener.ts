import { monaco } from "../../../ui/monaco";
import { pathOfUri } from "../../textModels/workspaceModels";
import { openFileAt } from "../../workspace/store";
import type { ServiceContext } from "../types";

/**
 * Go to Definition (F12, Ctrl+click) into another workspace file: the standalone editor can only
 * move within its own model, so this opens that file's tab and puts the caret on the place, as
 * the terminal's `path:line` links do. Other addresses (Node's declaration files) stay in Peek.
 */
export function registerFileOpener(context: ServiceContext): monaco.IDisposable {
  return monaco.editor.registerEditorOpener({
    openCodeEditor(_source, resource, selectionOrPosition) {
      const path = pathOfUri(resource);
      const id = path === null ? undefined : context.session.fileIdAt(path);
      if (id === undefined) return false;
      const place = selectionOrPosition ?? { lineNumber: 1, column: 1 };
      if ("startLineNumber" in place) openFileAt(id, place.startLineNumber, place.startColumn);
      else openFileAt(id, place.lineNumber, place.column);
      return true;
    },
  });
}
