import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and until the page's script has taken over, then true. A form's
 * submit button waits for it: clicked earlier, it would post the page instead of calling the API.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
