import { useState } from "react";
import { toast } from "react-toastify/unstyled";
import { ApiError } from "../../lib/api";
import { Spinner } from "../../ui/Spinner";
import { downloadAccountExport } from "./accountApi";

/** Saves a blob through the browser's download, under `name`. */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy once click() returns; the URL can go on the next tick.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The account page's "Your data": a zip of the account, its hosted sessions' files, PRs and chat. */
export function ExportDataSection({ userId }: { userId: string }) {
  const [isExporting, setIsExporting] = useState(false);

  async function handleExport() {
    setIsExporting(true);
    try {
      const { blob, fileName } = await downloadAccountExport(userId);
      save(blob, fileName ?? "ensemble-export.zip");
    } catch (error) {
      toast.error((error instanceof ApiError && error.serverMessage) || "Could not export your data");
    } finally {
      setIsExporting(false);
    }
  }

  return (
    <section className="card account-card" aria-labelledby="account-data">
      <h2 id="account-data">Your data</h2>
      <p className="muted">
        A zip of your account, the files of the sessions you host, and your pull requests and chat messages.
      </p>
      <button type="button" className="button button-ghost" disabled={isExporting} onClick={handleExport}>
        {isExporting && <Spinner />}
        Download my data
      </button>
    </section>
  );
}
