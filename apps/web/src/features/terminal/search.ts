/** A block of terminal output that can find text in itself (one terminal emulator). */
export interface SearchableBlock {
  /** The block's element, for document order and scrolling. */
  element: HTMLElement;
  /**
   * Selects the next (or previous) match after the block's current selection, or the first
   * (last) one when `fromEdge`, and scrolls it into view; false when there is none before the
   * block's end (start).
   */
  find(query: string, direction: "next" | "previous", fromEdge: boolean): boolean;
  /** Forgets the block's selected match. */
  clear(): void;
}

/** Node.DOCUMENT_POSITION_FOLLOWING, without needing a DOM to load this module. */
const FOLLOWING = 4;

const blocks = new Set<SearchableBlock>();
let current: SearchableBlock | null = null;

/** Makes a block searchable until the returned function is called. */
export function registerSearchable(block: SearchableBlock): () => void {
  blocks.add(block);
  return () => {
    blocks.delete(block);
    if (current === block) current = null;
  };
}

function inDocumentOrder(): SearchableBlock[] {
  return [...blocks].sort((a, b) => (a.element.compareDocumentPosition(b.element) & FOLLOWING ? -1 : 1));
}

/**
 * Selects the next (or previous) match of `query` in the terminal's output, going on to the
 * following blocks and round to the first. False when nothing matches.
 */
export function findInTerminal(query: string, direction: "next" | "previous"): boolean {
  if (query === "") return false;
  const order = inDocumentOrder();
  if (direction === "previous") order.reverse();
  const start = current ? order.indexOf(current) : -1;
  // Each block once from the current one on, then the current one again from its edge.
  for (let step = 0; step <= order.length; step++) {
    const block = order[(Math.max(start, 0) + step) % order.length];
    if (!block) continue;
    const fromEdge = block !== current || step > 0;
    if (block.find(query, direction, fromEdge)) {
      if (current && current !== block) current.clear();
      current = block;
      return true;
    }
  }
  return false;
}

/** Clears the selected match (the search box closed). */
export function endTerminalSearch(): void {
  current?.clear();
  current = null;
}
