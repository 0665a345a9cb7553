import { type FormEvent, useState } from "react";
import { Dialog } from "../../ui/Dialog";

interface SessionFormDialogProps {
  isOpen: boolean;
  onClose: () => void;
  title: string;
  label: string;
  placeholder: string;
  submitLabel: string;
  busyLabel: string;
  isBusy: boolean;
  /** Resolves to true when the dialog should close. */
  onSubmit: (value: string) => Promise<boolean>;
}

/** The shared one-field form of the create and join dialogs. */
export function SessionFormDialog(props: SessionFormDialogProps) {
  const { isOpen, onClose, title, label, placeholder, submitLabel, busyLabel, isBusy, onSubmit } = props;
  const [value, setValue] = useState("");

  function handleClose() {
    setValue("");
    onClose();
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy) return;
    if (await onSubmit(value)) handleClose();
  }

  const inputId = `${title.replace(/\s+/g, "-").toLowerCase()}-input`;
  return (
    <Dialog isOpen={isOpen} title={title} onClose={handleClose}>
      <form className="form" onSubmit={handleSubmit} noValidate>
        <div className="field">
          <label htmlFor={inputId}>{label}</label>
          <input
            id={inputId}
            type="text"
            value={value}
            placeholder={placeholder}
            autoComplete="off"
            onChange={(event) => setValue(event.target.value)}
          />
        </div>
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={handleClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={isBusy}>
            {isBusy ? busyLabel : submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
