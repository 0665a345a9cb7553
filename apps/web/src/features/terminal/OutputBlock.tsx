import "@xterm/xterm/css/xterm.css";
import { useEffect, useLayoutEffect, useRef } from "react";
import { OutputView } from "./outputView";

interface OutputBlockProps {
  type: "output" | "error";
  /** The block's stream so far (grows as a run prints and as the typewriter types). */
  text: string;
  paths: () => ReadonlySet<string>;
  onOpenLocation: (path: string, line: number, column?: number) => void;
}

/**
 * A block of program output rendered by xterm.js (this module and xterm are their own chunk,
 * loaded with the terminal's first output).
 */
export default function OutputBlock({ type, text, paths, onOpenLocation }: OutputBlockProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<OutputView | null>(null);
  const callbacks = useRef({ paths, onOpenLocation });
  callbacks.current = { paths, onOpenLocation };

  useLayoutEffect(() => {
    if (!host.current) return;
    const created = new OutputView(host.current, {
      type,
      paths: () => callbacks.current.paths(),
      onOpenLocation: (...at) => callbacks.current.onOpenLocation(...at),
    });
    view.current = created;
    return () => {
      view.current = null;
      created.dispose();
    };
  }, [type]);

  useEffect(() => {
    view.current?.show(text);
  }, [text]);

  return <div ref={host} className="terminal-xterm" />;
}
