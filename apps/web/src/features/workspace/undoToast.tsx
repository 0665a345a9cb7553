import type { Ack } from "@ensemble/protocol";
import { toast } from "react-toastify/unstyled";

/** How long a delete or a rename can be undone from its toast. */
const UNDO_MS = 10_000;

/**
 * Says what a file operation did, with an Undo button for the person who did it. Undo runs
 * once; a refusal (someone took the path meanwhile) says why.
 */
export function showUndo(message: string, undo: () => Promise<Ack<unknown>>): void {
  let isUndone = false;
  toast.info(
    ({ closeToast }) => (
      <span className="undo-toast">
        {message}{" "}
        <button
          type="button"
          className="undo-toast-button"
          onClick={() => {
            closeToast();
            if (isUndone) return;
            isUndone = true;
            void undo().then((result) => {
              if (!result.ok) toast.error(`Could not undo: ${result.error.message}`);
            });
          }}
        >
          Undo
        </button>
      </span>
    ),
    { autoClose: UNDO_MS, closeOnClick: false },
  );
}
