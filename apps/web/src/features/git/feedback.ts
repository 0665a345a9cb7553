import { toast } from "react-toastify/unstyled";
import { failureText, type GitFailure } from "./runner";

/** Git toasts stay 3 s (spec §9), success and failure alike. */
export const GIT_TOAST_MS = 3000;

/** Shows why an operation did not happen, for 3 s. */
export function showFailure(result: GitFailure): void {
  toast.error(failureText(result), { autoClose: GIT_TOAST_MS });
}

export function showSuccess(message: string): void {
  toast.success(message, { autoClose: GIT_TOAST_MS });
}

export function showInfo(message: string): void {
  toast.info(message, { autoClose: GIT_TOAST_MS });
}
