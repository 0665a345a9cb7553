import * as RadixDialog from "@radix-ui/react-dialog";
import { type ReactNode, type RefObject, useRef } from "react";
import { CloseButton } from "./CloseButton";
import { isInPartThatKeepsEscape } from "./Dialog";

interface DrawerProps {
  /** Off: the children render in place, untouched (the desktop layout). */
  isDrawer: boolean;
  isOpen: boolean;
  onClose: () => void;
  side: "left" | "right";
  /** Names the drawer: its own header (title and close button) shows it. */
  title?: string | undefined;
  /** Or the id of the children's own heading, when they bring their header and close button. */
  labelledBy?: string | undefined;
  /** The element that takes focus on open (the chat's text box); else the first focusable one. */
  initialFocusId?: string | undefined;
  /** Where focus goes on close when the opener is gone (an item of a menu that has closed). */
  fallbackFocusId: string;
  /** A one-time override of where focus goes on close (a file opened from the sidebar: the editor). */
  focusOnClose?: RefObject<(() => void) | null> | undefined;
  /**
   * The children stay mounted (hidden by their own means) while the drawer is closed: a call
   * keeps playing its peers' sound. They mount again inside the drawer when it opens.
   */
  keepMounted?: boolean | undefined;
  testId?: string | undefined;
  children: ReactNode;
}

function isShown(element: HTMLElement | null): element is HTMLElement {
  return element?.isConnected === true && element.checkVisibility();
}

/**
 * An off-canvas panel of the compact editor (Radix's modal dialog, like `Dialog`): it slides
 * in from one side over a backdrop, keeps focus inside and hides the rest from assistive
 * technology while open, closes on Escape (unless pressed in a part marked `KEEPS_ESCAPE`: a
 * name box cancels its edit), its close button or a press on the backdrop, and
 * gives focus back to whatever opened it (or to `fallbackFocusId` when that has gone).
 */
export function Drawer(props: DrawerProps) {
  const openerRef = useRef<HTMLElement | null>(null);
  const backdropRef = useRef<HTMLDivElement>(null);
  if (!props.isDrawer) return props.children;

  return (
    <>
      {!props.isOpen && props.keepMounted && props.children}
      <RadixDialog.Root
        open={props.isOpen}
        onOpenChange={(open) => {
          if (!open) props.onClose();
        }}
      >
        <RadixDialog.Portal>
          <RadixDialog.Overlay ref={backdropRef} className="drawer-backdrop">
            <RadixDialog.Content
              className={`drawer is-${props.side}`}
              aria-modal="true"
              // Only when given: an undefined here would wipe the label Radix takes from the title.
              {...(props.labelledBy ? { "aria-labelledby": props.labelledBy } : {})}
              aria-describedby={undefined}
              data-testid={props.testId}
              onOpenAutoFocus={(event) => {
                openerRef.current =
                  document.activeElement instanceof HTMLElement ? document.activeElement : null;
                const initial = props.initialFocusId ? document.getElementById(props.initialFocusId) : null;
                if (initial && !initial.matches(":disabled")) {
                  event.preventDefault();
                  initial.focus();
                }
              }}
              onCloseAutoFocus={(event) => {
                event.preventDefault();
                const override = props.focusOnClose?.current;
                if (override && props.focusOnClose) {
                  props.focusOnClose.current = null;
                  override();
                  return;
                }
                const opener = openerRef.current;
                const target = isShown(opener) ? opener : document.getElementById(props.fallbackFocusId);
                target?.focus();
              }}
              onEscapeKeyDown={(event) => {
                if (isInPartThatKeepsEscape(event.target)) event.preventDefault();
              }}
              onPointerDownOutside={(event) => {
                if (event.detail.originalEvent.target !== backdropRef.current) event.preventDefault();
              }}
            >
              {props.title !== undefined && (
                <header className="drawer-header">
                  <RadixDialog.Title className="drawer-title">{props.title}</RadixDialog.Title>
                  <CloseButton label={`Close ${props.title.toLowerCase()}`} onClick={props.onClose} />
                </header>
              )}
              {props.isOpen && props.children}
            </RadixDialog.Content>
          </RadixDialog.Overlay>
        </RadixDialog.Portal>
      </RadixDialog.Root>
    </>
  );
}
