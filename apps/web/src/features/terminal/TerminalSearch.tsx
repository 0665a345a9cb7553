import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { CloseButton } from "../../ui/CloseButton";
import { endTerminalSearch, findInTerminal } from "./search";

/**
 * The terminal's find box: Enter (or Next) selects the next match of the output, Shift+Enter
 * (or Previous) the one before; Escape closes it. "No matches" is announced.
 */
export function TerminalSearch({ onClose }: { onClose: () => void }) {
  const [query, setQuery] = useState("");
  const [status, setStatus] = useState("");
  const inputRef = useRef<HTMLInputElement>(null);
  const statusId = useId();

  useEffect(() => {
    inputRef.current?.focus();
    return endTerminalSearch;
  }, []);

  const find = (direction: "next" | "previous") => {
    if (query === "") return;
    setStatus(findInTerminal(query, direction) ? "" : `No matches for “${query}”`);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      find(event.shiftKey ? "previous" : "next");
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <search className="terminal-search" aria-label="Find in terminal">
      <input
        ref={inputRef}
        type="search"
        aria-label="Find in terminal output"
        aria-describedby={statusId}
        placeholder="Find"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setStatus("");
        }}
        onKeyDown={handleKeyDown}
      />
      <button
        type="button"
        className="terminal-button"
        aria-label="Previous match"
        onClick={() => find("previous")}
      >
        ↑
      </button>
      <button type="button" className="terminal-button" aria-label="Next match" onClick={() => find("next")}>
        ↓
      </button>
      <span id={statusId} className="terminal-search-status" role="status">
        {status}
      </span>
      <CloseButton
        label="Close find"
        className="terminal-button terminal-close"
        size={12}
        onClick={onClose}
      />
    </search>
  );
}
