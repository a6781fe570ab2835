// Labels for the ends of a list's range that are instants (a datetime `from`/`to` in the URL), shown
// in the range's zone: "21 Oct 2026, 14:00".
export function instantLabel(iso: string, tz: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: tz }).format(ms);
}
