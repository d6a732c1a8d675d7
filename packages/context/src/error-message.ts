// A thrown value's message. `catch (error)` gets `unknown`: anything can be thrown, and
// `(error as Error).message` of a thrown string is undefined, so lint forbids that cast (docs/lint.md).
// Here, the lowest package, so that every package (and the embedded database's holder, which loads
// no more than it must) can use it; core's errorLine builds the one line hatloop stores on it.

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
