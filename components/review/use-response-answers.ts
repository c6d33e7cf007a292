"use client";

import { useEffect, useState } from "react";
import type { OpenReviewView } from "@/lib/contract/reviews";
import { missingAnswers, type ResponseValues } from "./response-values";

/**
 * The response form's answers, when the task has one, and which required ones are missing: said
 * on the fields once an approval was tried, and kept current as they are filled in.
 */
export function useResponseAnswers(schema: OpenReviewView["response_schema"]) {
  const [answers, setAnswers] = useState<ResponseValues>({});
  const [missing, setMissing] = useState<string[]>([]);
  // Approvals refused for missing answers: each moves the focus to the first field said to be
  // missing, once the fields say so (after the render, whether the try came by click or by key).
  const [refused, setRefused] = useState(0);
  useEffect(() => {
    if (refused)
      document.querySelector<HTMLElement>('[data-response-form] [aria-invalid="true"]')?.focus();
  }, [refused]);

  /** The answers to send; undefined without a form; null when some are missing (then said). */
  function checked(): ResponseValues | null | undefined {
    if (!schema) return undefined;
    const gaps = missingAnswers(schema, answers);
    setMissing(gaps);
    if (!gaps.length) return answers;
    // Said on the fields themselves ("Required"), the first of them focused.
    setRefused((n) => n + 1);
    return null;
  }

  function answer(v: ResponseValues) {
    setAnswers(v);
    if (!missing.length || !schema) return;
    setMissing(missingAnswers(schema, v));
  }

  /** The answers when complete (a send-back takes them only then), else undefined. */
  const complete = () => (schema && !missingAnswers(schema, answers).length ? answers : undefined);

  return { answers, answer, missing, checked, complete };
}
