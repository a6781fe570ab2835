// The bounds of a note and its shape on the wire, shared by the store, the routes and the form (no
// server code here: the form counts characters by the same rule the route checks).

/** The most notes one workspace keeps. */
export const ANNOTATIONS_PER_WORKSPACE = 1000;
/** A note's text, in characters after trimming. */
export const ANNOTATION_TEXT_MAX = 280;
/** An author's name, in characters after trimming. */
export const ANNOTATION_AUTHOR_MAX = 80;

/**
 * Characters as a person counts them: code points, so an emoji or a letter outside the Basic
 * Multilingual Plane is one, not the two UTF-16 units of `String.length`.
 */
export const characterCount = (s: string): number => [...s].length;

/** A note as the routes answer it; instants are ISO strings, `updated_at` the version a PATCH names. */
export type AnnotationJson = {
  id: string;
  date: string;
  end_date: string | null;
  text: string;
  author: string | null;
  created_at: string;
  updated_at: string;
};
