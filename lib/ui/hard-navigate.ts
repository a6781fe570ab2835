// A full page load to another of this app's pages, where nothing of the current page may survive: after
// signing in, signing out, a session that ended, a workspace deleted. One function, so the tests of
// those flows can see where the page went (jsdom does not navigate).
export function hardNavigate(path: string): void {
  window.location.assign(path);
}
