/** A URI component as text; a malformed escape (`%ZZ`, a lone `%E2`) is read as written instead of throwing. */
export function decodeLoosely(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}
