// The one typed error for every failure of a Data API call, upstream or through this app's BFF:
// HTTP errors, timeouts, network errors, bad JSON and bodies that match no known shape.
import { errorBrand } from "@/lib/error-brand";
import type { ErrorBody } from "./schemas";

export type DataApiErrorInit = {
  status: number;
  code: string;
  message: string;
  param?: string;
  requestId?: string;
  /** Seconds to wait before retrying, when known (Retry-After). */
  retryAfter?: number;
  /** What an answer of this app's routes carried besides its error (a 409's `current` note), for the browser's writes. */
  extra?: Record<string, unknown>;
};

/**
 * Recognised by its brand (lib/error-brand.ts), not `instanceof`: the per-key clients are shared
 * through globalThis by every bundle of the build, each with its own copy of this class.
 */
const brand = errorBrand<DataApiError>("DataApiError");

export class DataApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param?: string;
  readonly requestId?: string;
  readonly retryAfter?: number;
  readonly extra?: Record<string, unknown>;

  constructor(init: DataApiErrorInit) {
    super(init.message);
    this.name = "DataApiError";
    this.status = init.status;
    this.code = init.code;
    this.param = init.param;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    if (init.extra) this.extra = init.extra;
    brand.mark(this);
  }

  /** The browser-facing error body (the shape of lib/data-api/README.md "Errors the browser gets"). */
  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.param ? { param: this.param } : {}),
        ...(this.requestId ? { request_id: this.requestId } : {}),
      },
    };
  }
}

export const isDataApiError = brand.is;
