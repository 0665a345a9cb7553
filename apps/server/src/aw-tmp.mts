import * as Y from "yjs";
import { Awareness, encodeAwarenessUpdate } from "y-protocols/awareness";
import { decodeAwareness } from "./features/collab/awareness.ts";
const doc = new Y.Doc();
const t = doc.getText("src/main.js"); t.insert(0, "hello world ".repeat(100));
const aw = new Awareness(doc);
aw.setLocalState({ user: { id: "u-123e4567-e89b-12d3-a456-426614174000", name: "Typist 12", color: "#3b82f6" } });
const pos = Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(t, 500));
aw.setLocalStateField("cursor", { anchor: pos, head: pos });
const msg = encodeAwarenessUpdate(aw, [doc.clientID]);
console.log("bytes", msg.length, new TextDecoder().decode(msg.slice(6)));
for (const round of [1, 2, 3]) {
  const n = 200000; let t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) decodeAwareness(msg, 1);
  const dec = Number(process.hrtime.bigint() - t0) / n / 1000;
  const json = JSON.stringify(aw.getLocalState());
  t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) JSON.parse(json);
  const parse = Number(process.hrtime.bigint() - t0) / n / 1000;
  console.log(`round ${round}: decodeAwareness ${dec.toFixed(2)} µs, JSON.parse alone ${parse.toFixed(2)} µs`);
}
