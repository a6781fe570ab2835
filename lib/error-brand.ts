// Error identity that survives bundling. The production build bundles server code into several
// layers (route handlers, pages, the proxy, instrumentation), each with its own copy of a module,
// while objects they share through globalThis (the store, the server context, the per-key clients)
// throw errors made by whichever copy created them. `instanceof` then compares with the wrong copy of
// the class and fails: a store refusal became a 500. A brand is a property keyed by `Symbol.for`, one
// symbol in the whole process, so every copy of a class marks and recognises the same brand. Every
// error class that another module maps to an answer brands itself in its constructor and exports the
// brand's guard; nothing outside the class's own module compares with `instanceof`.

/** One brand: `mark` in the class's constructor, `is` wherever such an error is recognised. */
export type ErrorBrand<E extends Error> = {
  mark(error: E): void;
  is(value: unknown): value is E;
};

/** The brand named `name` (unique in the app: the class's name, or what the mark means). */
export function errorBrand<E extends Error>(name: string): ErrorBrand<E> {
  const key = Symbol.for(`workspace-analytics.${name}`);
  return {
    mark: (error) => {
      Object.defineProperty(error, key, { value: true });
    },
    is: (value): value is E => typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[key] === true,
  };
}
