import * as Y from "yjs";
import { monaco } from "../../../ui/monaco";
import type { CollabSession } from "../../collab/CollabSession";
import { isWithin, PRESENCE_MS, typistColor } from "../../collab/presence";

/** A remote typist worth drawing: edited within the last 3 s and has a cursor in this file. */
interface Typist {
  clientId: number;
  name: string;
  color: string;
  head: monaco.IPosition;
}

class NameLabel implements monaco.editor.IContentWidget {
  readonly allowEditorOverflow = false;
  readonly suppressMouseDown = true;
  private readonly node = document.createElement("div");
  position: monaco.IPosition;

  constructor(
    private readonly id: string,
    typist: Typist,
  ) {
    this.node.className = "remote-cursor-label";
    this.position = typist.head;
    this.update(typist);
  }

  update(typist: Typist): void {
    this.position = typist.head;
    // textContent, never markup: the name is someone else's input.
    if (this.node.textContent !== typist.name) this.node.textContent = typist.name;
    this.node.style.backgroundColor = typist.color;
  }

  getId(): string {
    return this.id;
  }

  getDomNode(): HTMLElement {
    return this.node;
  }

  getPosition(): monaco.editor.IContentWidgetPosition {
    return {
      position: this.position,
      preference: [
        monaco.editor.ContentWidgetPositionPreference.ABOVE,
        monaco.editor.ContentWidgetPositionPreference.BELOW,
      ],
    };
  }
}

/** Where a relative-position caret (awareness JSON) is in `model`, if it is in this file. */
export function resolveHead(
  head: unknown,
  ytext: Y.Text,
  model: monaco.editor.ITextModel,
): monaco.IPosition | null {
  const doc = ytext.doc;
  if (typeof head !== "object" || head === null || !doc) return null;
  try {
    const absolute = Y.createAbsolutePositionFromRelativePosition(
      Y.createRelativePositionFromJSON(head),
      doc,
    );
    return absolute && absolute.type === ytext ? model.getPositionAt(absolute.index) : null;
  } catch {
    return null;
  }
}

/**
 * Draws what y-monaco leaves to the app: per-user colours for its selection and caret
 * classes (`yRemoteSelection-{clientID}`, `yRemoteSelectionHead-{clientID}`), a coloured
 * highlight of the typist's line, and a name label above the caret. All of it shows only
 * while that user edited within the last 3 s; a 1 s ticker makes it vanish on time.
 */
export class RemoteCursors {
  private readonly style = document.createElement("style");
  private readonly lines: monaco.editor.IEditorDecorationsCollection;
  private readonly labels = new Map<number, NameLabel>();
  private readonly ticker: ReturnType<typeof setInterval>;
  private frame = 0;

  constructor(
    private readonly editor: monaco.editor.IStandaloneCodeEditor,
    private readonly session: CollabSession,
    private readonly ytext: Y.Text,
  ) {
    document.head.append(this.style);
    this.lines = editor.createDecorationsCollection();
    this.ticker = setInterval(this.schedule, 1000);
    session.awareness.on("change", this.schedule);
    ytext.observe(this.schedule);
    this.schedule();
  }

  dispose(): void {
    cancelAnimationFrame(this.frame);
    clearInterval(this.ticker);
    this.session.awareness.off("change", this.schedule);
    this.ytext.unobserve(this.schedule);
    for (const label of this.labels.values()) this.editor.removeContentWidget(label);
    this.labels.clear();
    this.lines.clear();
    this.style.remove();
  }

  private readonly schedule = () => {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(this.render);
  };

  private readonly render = () => {
    const model = this.editor.getModel();
    if (!model) return;
    const typists = this.activeTypists(model);
    this.style.textContent = typists.map(cssFor).join("\n");
    this.lines.set(
      typists.map((t) => ({
        range: new monaco.Range(t.head.lineNumber, 1, t.head.lineNumber, 1),
        options: { isWholeLine: true, className: `remote-line remote-line-${t.clientId}` },
      })),
    );
    const seen = new Set<number>();
    for (const typist of typists) {
      seen.add(typist.clientId);
      const label = this.labels.get(typist.clientId);
      if (label) {
        label.update(typist);
        this.editor.layoutContentWidget(label);
      } else {
        const created = new NameLabel(`remote-label-${typist.clientId}`, typist);
        this.labels.set(typist.clientId, created);
        this.editor.addContentWidget(created);
      }
    }
    for (const [clientId, label] of this.labels) {
      if (seen.has(clientId)) continue;
      this.editor.removeContentWidget(label);
      this.labels.delete(clientId);
    }
  };

  private activeTypists(model: monaco.editor.ITextModel): Typist[] {
    const now = Date.now();
    const typists: Typist[] = [];
    for (const [clientId, peer] of this.session.peers()) {
      if (!isWithin(this.session.edits.editedAt(clientId), now, PRESENCE_MS.highlight)) continue;
      const head = resolveHead(peer.head, this.ytext, model);
      if (!head) continue;
      const color = typistColor(peer.userId ?? String(clientId));
      typists.push({ clientId, name: peer.name, color, head });
    }
    return typists;
  }
}

/** Colours for one typist; the id is a number and the colour comes from our palette. */
function cssFor({ clientId, color }: Typist): string {
  return [
    `.yRemoteSelection-${clientId} { background-color: ${color}40; }`,
    `.yRemoteSelectionHead-${clientId} { border-left: 2px solid ${color}; }`,
    `.remote-line-${clientId} { background-color: ${color}1f; }`,
  ].join("\n");
}
