import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { useDismiss } from "./useDismiss";

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return menu ? Array.from(menu.querySelectorAll<HTMLElement>('[role="menuitem"]')) : [];
}

/**
 * A WAI-ARIA menu button's state and keys, for the user menu and the editor's "More actions":
 * opening focuses the first item (ArrowUp on the button: the last), arrows, Home and End move
 * between the `[role="menuitem"]` elements, Escape closes and gives focus back to the button
 * (and goes no further: it must not also close a dialog behind), Tab closes, and a press
 * outside closes.
 */
export function useMenuButton() {
  const [isOpen, setIsOpen] = useState(false);
  const [initial, setInitial] = useState<"first" | "last">("first");
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = useCallback(() => setIsOpen(false), []);
  useDismiss(rootRef, isOpen, close);

  useEffect(() => {
    if (!isOpen) return;
    const items = menuItems(menuRef.current);
    (initial === "first" ? items[0] : items.at(-1))?.focus();
  }, [isOpen, initial]);

  const open = useCallback((at: "first" | "last") => {
    setInitial(at);
    setIsOpen(true);
  }, []);

  const toggle = () => (isOpen ? close() : open("first"));

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      open(event.key === "ArrowDown" ? "first" : "last");
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLElement>) {
    const items = menuItems(menuRef.current);
    const active = document.activeElement;
    const current = active instanceof HTMLElement ? items.indexOf(active) : -1;
    const moves: Record<string, number> = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: -1 };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      items.at(target % items.length)?.focus();
    } else if (event.key === "Escape") {
      event.stopPropagation();
      close();
      buttonRef.current?.focus();
    } else if (event.key === "Tab") {
      close();
    }
  }

  return { isOpen, open, close, toggle, rootRef, buttonRef, menuRef, menuId, onButtonKeyDown, onMenuKeyDown };
}
