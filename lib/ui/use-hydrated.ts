// True once React has hydrated this tree in the browser (false in the server's HTML). Controls whose
// work needs JavaScript are disabled until then: a click on server-rendered HTML before hydration does
// nothing, and a form submitted before it would fall back to a native GET that puts its fields (an API
// key) in the URL.
import { useSyncExternalStore } from "react";

const noop = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
