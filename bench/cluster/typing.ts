import { MAIN_FILE, textNameOf as nameIn } from "../collab/session";
import type { BenchClient } from "../collab/transports";

/** The root text of `src/main.js` in a synced client of ours. */
export function textNameOf(client: BenchClient): string {
  return nameIn("ours", client.doc, MAIN_FILE);
}

/** The text of `src/main.js` as the client holds it now. */
export function textOf(client: BenchClient): string {
  return client.doc.getText(textNameOf(client)).toString();
}
