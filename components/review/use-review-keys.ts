"use client";

import { type RefObject, useEffect, useRef } from "react";
import { reviewKey } from "./decision-rules";
import { isTyping } from "./kbd";

type Actions = { approve: () => void; sendBack: () => void; undo: () => void };

/** The page-wide keys of a review, while `on`: see reviewKey. */
export function useReviewKeys(
  on: boolean,
  feedbackRef: RefObject<HTMLTextAreaElement | null>,
  actions: Actions,
) {
  const current = useRef(actions);
  current.current = actions;
  useEffect(() => {
    if (!on) return;
    const onKey = (e: KeyboardEvent) => {
      const what = reviewKey(e, {
        inFeedback: e.target === feedbackRef.current,
        typing: isTyping(e),
      });
      if (!what) return;
      e.preventDefault();
      if (what === "focus") feedbackRef.current?.focus();
      else current.current[what]();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [on, feedbackRef]);
}
