// What the store's functions throw besides a database failure, each with the code of the shared error
// shape the route layer answers with ({error: {code, message, param?}}): a conflict (409), bad input
// (400), a workspace's bound reached (422), or no store to use (503). Each carries a brand
// (lib/error-brand.ts) and is recognised by its guard (`isStoreConflictError`...), never by
// `instanceof`: the store is opened once per process by whichever bundle of the build came first, so
// the class it throws is often another copy than the one a route handler's bundle holds.
import { errorBrand } from "@/lib/error-brand";

const conflictBrand = errorBrand<StoreConflictError>("StoreConflictError");
const limitBrand = errorBrand<StoreLimitError>("StoreLimitError");
const inputBrand = errorBrand<StoreInputError>("StoreInputError");
const unavailableBrand = errorBrand<StoreUnavailableError>("StoreUnavailableError");

/** The write contradicts what is stored: a key linked to another workspace, a name taken. */
export class StoreConflictError extends Error {
  constructor(
    message: string,
    /** The shared error shape's code: `conflict`, or one more precise (`name_taken`). */
    readonly code: string = "conflict",
    /** The field the conflict is about, when one is. */
    readonly param?: string,
  ) {
    super(message);
    this.name = "StoreConflictError";
    conflictBrand.mark(this);
  }
}

/**
 * The request's workspace went while it was being served: merged into another (a key linked) or
 * deleted. Made again, the request finds the workspace its key opens now.
 */
export const workspaceGone = () => new StoreConflictError("This workspace was just merged into another one or deleted. Reload the page and try again.");

/** The workspace already keeps as many of something as it may (200 saved views, 1,000 notes): 422
 * `limit_reached`, nothing written. */
export class StoreLimitError extends Error {
  readonly code = "limit_reached";
  constructor(message: string) {
    super(message);
    this.name = "StoreLimitError";
    limitBrand.mark(this);
  }
}

/** An argument the store cannot keep (an unknown time zone, a malformed date); `param` names it. */
export class StoreInputError extends Error {
  readonly code = "invalid_parameter";
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
    this.name = "StoreInputError";
    inputBrand.mark(this);
  }
}

/** The store could not be opened (locked by another process, unreachable, migrations failed). */
export class StoreUnavailableError extends Error {
  readonly code = "store_unavailable";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreUnavailableError";
    unavailableBrand.mark(this);
  }
}

export const isStoreConflictError = conflictBrand.is;
export const isStoreLimitError = limitBrand.is;
export const isStoreInputError = inputBrand.is;
export const isStoreUnavailableError = unavailableBrand.is;
