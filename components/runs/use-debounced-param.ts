"use client";

import { useEffect, useRef, useState } from "react";

/**
 * A text box bound to a URL value that is written back after `delay` ms without typing. A change
 * of the URL from elsewhere (a saved view, Clear) replaces the text; our own write does not.
 */
export function useDebouncedParam(value: string, write: (v: string) => void, delay = 250) {
  const [text, setText] = useState(value);
  const written = useRef(value);
  const writeRef = useRef(write);
  writeRef.current = write;

  useEffect(() => {
    if (value !== written.current) {
      written.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    if (text.trim() === written.current) return;
    const t = setTimeout(() => {
      // The URL may have caught up meanwhile (Clear, a saved view): then there is nothing to write.
      if (text.trim() === written.current) return;
      written.current = text.trim();
      writeRef.current(text.trim());
    }, delay);
    return () => clearTimeout(t);
  }, [text, delay]);

  return [text, setText] as const;
}
