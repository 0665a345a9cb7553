import { monaco } from "../../ui/monaco";
import { useCollabStore } from "../collab/store";
import { pathOfUri } from "../textModels/workspaceModels";
import { openFileAt } from "../workspace/store";

let isRegistered = false;

/**
 * Lets go to definition (and peek's "open") reach another workspace file: the standalone
 * editor cannot show another model by itself, so the file's tab opens at the target, as the
 * terminal's `path:line` links do. Registered once for the page, when the first editor starts
 * its language services; addresses that are not workspace files (Node's declaration files)
 * stay in Peek.
 */
export function ensureEditorOpener(): void {
  if (isRegistered) return;
  isRegistered = true;
  monaco.editor.registerEditorOpener({
    openCodeEditor(_source, resource, selectionOrPosition) {
      const path = pathOfUri(resource);
      const file = path === null ? undefined : useCollabStore.getState().files.find((f) => f.path === path);
      if (!file) return false;
      const at = !selectionOrPosition
        ? { lineNumber: 1, column: 1 }
        : "startLineNumber" in selectionOrPosition
          ? { lineNumber: selectionOrPosition.startLineNumber, column: selectionOrPosition.startColumn }
          : selectionOrPosition;
      openFileAt(file.id, at.lineNumber, at.column);
      return true;
    },
  });
}
