// True once React has hydrated this tree in the browser; false while the server renders and while
// the browser hydrates. For controls whose work needs JavaScript (disabled until then: a click on
// server-rendered HTML does nothing, and a form submitted before hydration would fall back to a
// native request), and for parts of the shell outside every widget's Suspense that show something of
// a query, which may have arrived before hydration and must not make the HTML differ from the server's.
import { useSyncExternalStore } from "react";

const subscribeNever = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
