// The error a record that cannot be imported raises, in a module of its own: parse workers raise it
// too, and must not load the progress-bar and reporting code to do so.

/** A record that cannot be imported: names the file and the offending field. */
export class RecordError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
