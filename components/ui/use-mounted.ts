"use client";

import { useEffect, useRef } from "react";

/** Whether the component is still on screen: for a late answer that must be said somewhere seen. */
export function useMounted() {
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}
