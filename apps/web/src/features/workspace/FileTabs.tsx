import { useCollabStore } from "../collab/store";
import { closeFile, openFile, useOpenFiles } from "./store";
import { fileColor } from "./tree";

/** The open files as tabs (a list of buttons; the shown one is `aria-current`): click shows one, × closes it. */
export function FileTabs({ onSelect }: { onSelect: () => void }) {
  const openIds = useOpenFiles((s) => s.openIds);
  const activeId = useOpenFiles((s) => s.activeId);
  const files = useCollabStore((s) => s.files);
  const paths = new Map(files.map((f) => [f.id, f.path]));
  const tabs = openIds.flatMap((id) => {
    const path = paths.get(id);
    return path ? [{ id, path, name: path.slice(path.lastIndexOf("/") + 1) }] : [];
  });
  if (tabs.length === 0) return null;
  return (
    <ul className="file-tabs" aria-label="Open files">
      {tabs.map((tab) => (
        <li key={tab.id} className={`file-tab${tab.id === activeId ? " is-active" : ""}`}>
          <button
            type="button"
            aria-current={tab.id === activeId ? "true" : undefined}
            className="file-tab-name"
            title={tab.path}
            onClick={() => {
              openFile(tab.id);
              onSelect();
            }}
          >
            <span
              className="file-tab-dot"
              style={{ backgroundColor: fileColor(tab.name) }}
              aria-hidden="true"
            />
            {tab.name}
          </button>
          <button
            type="button"
            className="file-tab-close"
            aria-label={`Close ${tab.path}`}
            onClick={() => closeFile(tab.id)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
