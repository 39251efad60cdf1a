// The whole-number parser the verbs share (--limit, --concurrency), with the error class the caller reports.
export function positiveInt(
  flag: string,
  raw: string,
  max: number,
  Failure: new (message: string) => Error,
): number {
  const n = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new Failure(`${flag}: expected a whole number from 1 to ${max}, got "${raw}"`);
  }
  return n;
}
