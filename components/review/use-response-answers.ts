"use client";

import { useEffect, useRef, useState } from "react";
import type { OpenReviewView } from "@/lib/contract/reviews";
import { missingAnswers, type ResponseValues } from "./response-values";

/**
 * The response form's answers, when the task has one, and which required ones are missing: said
 * on the fields once an approval was tried, and kept current as they are filled in.
 */
export function useResponseAnswers(schema: OpenReviewView["response_schema"]) {
  const [answers, setAnswers] = useState<ResponseValues>({});
  const [missing, setMissing] = useState<string[]>([]);
  // An approval refused for missing answers moves the focus to the first field said to be missing,
  // in this form: after the render that marks it, and again after the next ones until it has
  // taken it (a field can be drawn or enabled a render late); an answer given ends the wish.
  const formRef = useRef<HTMLFieldSetElement>(null);
  const [focusWanted, setFocusWanted] = useState(false);
  useEffect(() => {
    if (!focusWanted) return;
    const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    field?.focus();
    if (field && document.activeElement === field) setFocusWanted(false);
  });

  /** The answers to send; undefined without a form; null when some are missing (then said). */
  function checked(): ResponseValues | null | undefined {
    if (!schema) return undefined;
    const gaps = missingAnswers(schema, answers);
    setMissing(gaps);
    if (!gaps.length) return answers;
    // Said on the fields themselves ("Required"), the first of them focused.
    setFocusWanted(true);
    return null;
  }

  function answer(v: ResponseValues) {
    setAnswers(v);
    setFocusWanted(false);
    if (!missing.length || !schema) return;
    setMissing(missingAnswers(schema, v));
  }

  /** The answers when complete (a send-back takes them only then), else undefined. */
  const complete = () => (schema && !missingAnswers(schema, answers).length ? answers : undefined);

  return { answers, answer, missing, checked, complete, formRef };
}
