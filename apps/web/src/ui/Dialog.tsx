import * as RadixDialog from "@radix-ui/react-dialog";
import { type ReactNode, useRef } from "react";

interface DialogProps {
  isOpen: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Added to the panel's class, for a dialog of another size. */
  className?: string | undefined;
}

/**
 * Marks a part of a dialog whose own keyboard handling has Escape (a code editor closes its
 * widgets, cancels a selection): Escape pressed in it never closes the dialog.
 */
export const KEEPS_ESCAPE = { "data-keeps-escape": "" } as const;

/** The key event came from a part marked `KEEPS_ESCAPE` (dialogs and drawers leave it alone). */
export function isInPartThatKeepsEscape(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest("[data-keeps-escape]") !== null;
}

/**
 * A modal dialog (Radix's, portalled into `document.body`): labelled by its title, keeps focus
 * inside, hides the rest of the page from assistive technology, closes on Escape (unless
 * pressed in a part marked `KEEPS_ESCAPE`) and on a press on the backdrop, and gives focus
 * back to whatever had it when it opened (our dialogs are opened by state, not by a Radix
 * trigger, which is where Radix would return it).
 */
export function Dialog({ isOpen, title, onClose, children, className }: DialogProps) {
  const openerRef = useRef<HTMLElement | null>(null);
  const backdropRef = useRef<HTMLDivElement>(null);

  return (
    <RadixDialog.Root
      open={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <RadixDialog.Portal>
        <RadixDialog.Overlay ref={backdropRef} className="dialog-backdrop">
          <RadixDialog.Content
            className={className ? `dialog ${className}` : "dialog"}
            aria-modal="true"
            aria-describedby={undefined}
            onOpenAutoFocus={() => {
              // Still the opener: Radix moves focus into the dialog after this.
              openerRef.current =
                document.activeElement instanceof HTMLElement ? document.activeElement : null;
            }}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              openerRef.current?.focus();
            }}
            onEscapeKeyDown={(event) => {
              if (isInPartThatKeepsEscape(event.target)) event.preventDefault();
            }}
            // Only the backdrop itself closes: a press on a toast (above the backdrop) does not.
            onPointerDownOutside={(event) => {
              if (event.detail.originalEvent.target !== backdropRef.current) event.preventDefault();
            }}
          >
            <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
            {children}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
