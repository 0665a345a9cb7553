import { FitAddon } from "@xterm/addon-fit";
import { SearchAddon } from "@xterm/addon-search";
import { type ILink, type ITheme, Terminal } from "@xterm/xterm";
import { findFileLinks } from "./links";
import { registerSearchable } from "./search";

/**
 * Most rows a block shows at once; beyond them its own viewport scrolls (and screen readers
 * read the rows in view), so one huge output cannot put tens of thousands of rows in the page.
 */
const MAX_ROWS = 1000;

/** The panel's colours (styles/terminal.css); the ANSI palette kept readable on its background. */
const THEME: ITheme = {
  background: "#111114",
  foreground: "#ededef",
  cursor: "#111114",
  selectionBackground: "#7c3aed88",
  black: "#3f3f46",
  red: "#f87171",
  green: "#4ade80",
  yellow: "#facc15",
  blue: "#60a5fa",
  magenta: "#c084fc",
  cyan: "#22d3ee",
  white: "#e4e4e7",
  brightBlack: "#a1a1aa",
  brightRed: "#fca5a5",
  brightGreen: "#86efac",
  brightYellow: "#fde047",
  brightBlue: "#93c5fd",
  brightMagenta: "#d8b4fe",
  brightCyan: "#67e8f9",
  brightWhite: "#fafafa",
};

/** What an output block needs from the panel. */
export interface OutputViewOptions {
  type: "output" | "error";
  /** The workspace's file paths: references to them become links. */
  paths: () => ReadonlySet<string>;
  /** A link to `path:line[:column]` was followed. */
  onOpenLocation: (path: string, line: number, column?: number) => void;
}

/**
 * One block of program output in xterm.js, in screen-reader mode: as many rows as its text
 * takes (the log scrolls, not the block), as wide as the log, read-only, searchable, with
 * `path:line` references to workspace files as links. Everyone renders the same stream, so
 * everyone sees the same screen (wrapped at their own width).
 */
export class OutputView {
  private readonly term: Terminal;
  private readonly fit = new FitAddon();
  private readonly search = new SearchAddon();
  private readonly host: HTMLElement;
  private readonly cleanups: (() => void)[] = [];
  /** The text written so far, without a final newline (held back: see show). */
  private written = "";
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;
  private isDisposed = false;

  constructor(host: HTMLElement, options: OutputViewOptions) {
    this.host = host;
    this.term = new Terminal({
      screenReaderMode: true,
      disableStdin: true,
      convertEol: true,
      scrollback: MAX_ROWS,
      rows: 1,
      cols: 80,
      cursorStyle: "bar",
      cursorInactiveStyle: "none",
      fontFamily: "'JetBrains Mono', ui-monospace, 'SFMono-Regular', monospace",
      fontSize: 13,
      // 13 px JetBrains Mono at 1.15 is the 19.5 px line of the panel's typed lines.
      lineHeight: 1.15,
      minimumContrastRatio: 4.5,
      theme: { ...THEME, ...(options.type === "error" ? { foreground: "#f87171" } : {}) },
      // OSC 8 hyperlinks come from the program anyone in the session ran: never followed.
      linkHandler: { activate: () => {} },
    });
    // Every key is the page's: Ctrl+C copies the selection (xterm answers the copy event),
    // Ctrl+F reaches the panel's find; the block takes no input.
    this.term.attachCustomKeyEventHandler(() => false);
    this.term.loadAddon(this.fit);
    this.term.loadAddon(this.search);
    this.term.open(host);
    this.tuneAccessibility();
    this.fitColumns();
    // The cursor of a finished block is noise; the program may show it again while it runs.
    this.term.write("\u001b[?25l");

    const links = this.term.registerLinkProvider({
      provideLinks: (y, callback) => callback(this.linksOn(y, options)),
    });
    this.cleanups.push(() => links.dispose());
    const resize = new ResizeObserver(() => this.fitColumns());
    resize.observe(host);
    this.cleanups.push(
      () => resize.disconnect(),
      () => {
        if (this.refreshTimer !== null) clearTimeout(this.refreshTimer);
      },
      registerSearchable({
        element: host,
        find: (query, direction, fromEdge) => this.find(query, direction, fromEdge),
        clear: () => this.term.clearSelection(),
      }),
    );
  }

  /**
   * Shows `text`: what extends the text written so far is written (a live run's next piece,
   * or the typewriter's next characters); anything else starts the block over. A final
   * newline waits for what follows it, so the block has no empty last row.
   */
  show(text: string): void {
    const next = text.endsWith("\n") ? text.slice(0, -1) : text;
    if (next === this.written) return;
    if (next.startsWith(this.written)) this.write(next.slice(this.written.length));
    else {
      this.term.reset();
      this.term.write("\u001b[?25l");
      this.write(next);
    }
    this.written = next;
  }

  dispose(): void {
    this.isDisposed = true;
    for (const cleanup of this.cleanups) cleanup();
    this.term.dispose();
  }

  private write(data: string): void {
    // The parse finishes later; the block may be gone by then (a clear).
    this.term.write(data, () => {
      if (!this.isDisposed) this.fitRows();
    });
  }

  /** As many rows as the text takes, up to MAX_ROWS; lines past the rows wait in the scrollback. */
  private fitRows(): void {
    const buffer = this.term.buffer.active;
    const cursor = buffer.baseY + buffer.cursorY;
    let last = buffer.length - 1;
    while (last > cursor && (buffer.getLine(last)?.translateToString(true) ?? "") === "") last--;
    const rows = Math.min(MAX_ROWS, Math.max(1, last + 1));
    if (rows !== this.term.rows) this.term.resize(this.term.cols, rows);
    if (!this.isInView()) this.scheduleAccessibilityRefresh();
  }

  /** Whether any of the block shows in the log (which clips it) and in the window. */
  private isInView(): boolean {
    const box = this.host.getBoundingClientRect();
    const clip = this.host.closest(".terminal-log")?.getBoundingClientRect();
    const top = Math.max(0, clip?.top ?? 0);
    const bottom = Math.min(window.innerHeight, clip?.bottom ?? window.innerHeight);
    return box.bottom > top && box.top < bottom;
  }

  /** One rebuild for a burst of writes out of view (see refreshAccessibility). */
  private scheduleAccessibilityRefresh(): void {
    if (this.refreshTimer !== null) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      this.refreshAccessibility();
    }, 50);
  }

  private fitColumns(): void {
    const cols = this.fit.proposeDimensions()?.cols;
    if (cols === undefined || cols === this.term.cols) return;
    this.term.resize(cols, this.term.rows);
    this.fitRows();
  }

  /**
   * Out of view xterm neither renders nor refreshes its accessibility rows until it is
   * scrolled into view (its own IntersectionObserver); a screen reader (and the log's text)
   * must have them now, so the accessibility tree is built again from the buffer.
   */
  private refreshAccessibility(): void {
    this.term.options.screenReaderMode = false;
    this.term.options.screenReaderMode = true;
    this.tuneAccessibility();
  }

  /**
   * The block's rows are read through the log around it (a polite live region that speaks
   * once a batch is typed out); xterm's own assertive live region would say everything again,
   * a character at a time. The hidden textarea takes no input here and is no tab stop of its
   * own: the log is one.
   */
  private tuneAccessibility(): void {
    const live = this.host.querySelector(".xterm-accessibility .live-region");
    live?.setAttribute("aria-live", "off");
    live?.setAttribute("aria-hidden", "true");
    const textarea = this.term.textarea;
    if (textarea) {
      textarea.tabIndex = -1;
      textarea.setAttribute("aria-label", "Program output (read only)");
    }
  }

  private linksOn(y: number, options: OutputViewOptions): ILink[] | undefined {
    const text = this.term.buffer.active.getLine(y - 1)?.translateToString(true);
    if (!text) return undefined;
    const links = findFileLinks(text, options.paths());
    if (links.length === 0) return undefined;
    return links.map((link) => ({
      // Buffer columns are 1-based and inclusive; paths and numbers are one cell a character.
      range: { start: { x: link.start + 1, y }, end: { x: link.end, y } },
      text: text.slice(link.start, link.end),
      decorations: { pointerCursor: true, underline: true },
      activate: () => options.onOpenLocation(link.path, link.line, link.column),
    }));
  }

  private find(query: string, direction: "next" | "previous", fromEdge: boolean): boolean {
    const before = fromEdge ? undefined : this.term.getSelectionPosition();
    if (fromEdge) this.term.clearSelection();
    const found = direction === "next" ? this.search.findNext(query) : this.search.findPrevious(query);
    const at = this.term.getSelectionPosition();
    if (!found || !at) return false;
    // The addon wraps round within the block; a match at or before the last one is the next block's turn.
    if (before) {
      const order = at.start.y - before.start.y || at.start.x - before.start.x;
      if (direction === "next" ? order <= 0 : order >= 0) {
        this.term.clearSelection();
        return false;
      }
    }
    this.reveal(at.start.y);
    return true;
  }

  /** Scrolls the log so that buffer row `row` is in view. */
  private reveal(row: number): void {
    const rowHeight = this.host.offsetHeight / Math.max(1, this.term.rows);
    const top = (row - this.term.buffer.active.viewportY) * rowHeight;
    const log = this.host.closest(".terminal-log");
    if (!log) return;
    const hostTop = this.host.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop;
    const target = hostTop + top;
    if (target < log.scrollTop || target + rowHeight > log.scrollTop + log.clientHeight)
      log.scrollTop = target - log.clientHeight / 2;
  }
}
