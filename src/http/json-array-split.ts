// The top-level elements of a JSON array body, split from its bytes as they arrive: each element's text is
// handed over whole, for the caller to JSON.parse and validate on its own (json-array.ts).
//
// Why a byte scanner and not a streaming JSON parser: the scanner only finds where elements start and end
// (strings, escapes, depth), skipping string contents with Buffer#indexOf, and leaves the parsing to V8's
// native JSON.parse, so a large body costs less than decoding it whole and parsing it once; a streaming JSON
// parser builds every value in JavaScript, token by token, and costs more than that whole parse. So no
// dependency (the measurements: test/bench/RESULTS.md, "Bulk and large lists").
//
// Equivalence with JSON.parse of the whole body, which the tests check with random arrays cut at random
// places: the body is `[` + elements joined by `,` + `]` with JSON whitespace around them; every element's
// bytes go to JSON.parse, so any syntax error inside one (an unclosed string, a stray bracket) still fails;
// the scanner itself rejects what lies between elements (an empty element, text after the closing `]`).
// Elements are cut at ASCII bytes, which never belong to a multi-byte UTF-8 sequence, so decoding each one
// gives the same characters as decoding the whole body.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
export const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** The four bytes JSON allows around values (String#trim allows more: a BOM or NBSP is not JSON). */
function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * A response body, or one element of a streamed array, over the size limit. An array's memory is what its
 * elements and the collector keep, not the body's length, so the limit applies to each element (and to a
 * body that turns out not to be an array, which is kept whole).
 */
export class TooLarge extends Error {
  constructor(
    readonly max: number,
    /** The index of the element over the limit, for a streamed array. */
    readonly element?: number,
  ) {
    super('too large');
  }
}

/**
 * - `start`: only JSON whitespace so far (or nothing);
 * - `elements`: inside the top-level array;
 * - `done`: the array closed, nothing but whitespace after it so far;
 * - `not-array`: the first byte that is not whitespace is not `[` (at `notArrayAt` in the chunk that had it);
 * - `invalid`: not JSON (or stopped by the caller).
 */
export type SplitState = 'start' | 'elements' | 'done' | 'not-array' | 'invalid';

export class JsonArraySplitter {
  state: SplitState = 'start';
  /** Offset of the first non-whitespace byte in the chunk that moved the state to `not-array`. */
  notArrayAt = -1;
  /** Elements handed over so far. */
  count = 0;
  private depth = 0;
  private inString = false;
  /** The previous byte was a backslash inside a string (the chunk ended between `\` and what it escapes). */
  private escaped = false;
  /** The current element has begun (its first byte was seen). */
  private started = false;
  /** A `,` was seen since the last element: another must follow. */
  private afterComma = false;
  /** Bytes of the current element carried over from earlier chunks. */
  private pieces: Buffer[] = [];
  private piecesBytes = 0;

  constructor(
    private readonly onElement: (text: string) => void,
    /** The largest element; a larger one throws TooLarge before more of it is kept. */
    private readonly maxElementBytes = Infinity,
  ) {}

  /** The rest is not worth splitting (an element already failed): the state becomes `invalid`. */
  stop(): void {
    this.state = 'invalid';
    this.pieces = [];
    this.piecesBytes = 0;
  }

  push(chunk: Buffer): void {
    let i = 0;
    const n = chunk.length;
    if (this.state === 'start') {
      while (i < n && isJsonSpace(chunk[i]!)) i++;
      if (i === n) return;
      if (chunk[i] !== OPEN_ARRAY) {
        this.state = 'not-array';
        this.notArrayAt = i;
        return;
      }
      this.state = 'elements';
      i++;
    }
    if (this.state === 'elements') i = this.scan(chunk, i);
    if (this.state === 'done') {
      for (; i < n; i++) {
        if (!isJsonSpace(chunk[i]!)) {
          this.state = 'invalid';
          return;
        }
      }
    }
  }

  /** The body ended. `done` is a complete array; `start` an empty (or all-whitespace) body. */
  end(): SplitState {
    if (this.state === 'elements') this.stop();
    return this.state;
  }

  /** Splits elements from `from` on; returns where the array closed (or the chunk's length). */
  private scan(chunk: Buffer, from: number): number {
    const n = chunk.length;
    // Where the current element began in this chunk; 0 when it carries on from an earlier one.
    let start = this.started ? 0 : -1;
    let i = from;
    while (i < n) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i++;
          continue;
        }
        const quote = chunk.indexOf(QUOTE, i);
        if (quote === -1) {
          this.escaped = (backslashesBefore(chunk, n, i) & 1) === 1;
          i = n;
          break;
        }
        // A quote after an odd run of backslashes is escaped; after an even one it ends the string.
        if ((backslashesBefore(chunk, quote, i) & 1) === 0) this.inString = false;
        i = quote + 1;
        continue;
      }
      const c = chunk[i]!;
      if (c === COMMA && this.depth === 0) {
        if (!this.started) return this.fail();
        this.emit(chunk, start, i);
        if (this.state !== 'elements') return n;
        start = -1;
        this.afterComma = true;
      } else if (c === CLOSE_ARRAY && this.depth === 0) {
        if (this.started) this.emit(chunk, start, i);
        else if (this.afterComma) return this.fail();
        if (this.state !== 'elements') return n;
        this.state = 'done';
        return i + 1;
      } else if (!isJsonSpace(c)) {
        if (!this.started) {
          this.started = true;
          start = i;
        }
        if (c === QUOTE) this.inString = true;
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.depth++;
        else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          // A `}` closing the top-level array, or more closings than openings: not JSON.
          if (this.depth === 0) return this.fail();
          this.depth--;
        }
      }
      i++;
    }
    if (this.started && this.state === 'elements') {
      this.pieces.push(chunk.subarray(start, n));
      this.piecesBytes += n - start;
      this.checkSize(this.piecesBytes);
    }
    return n;
  }

  private checkSize(bytes: number): void {
    if (bytes <= this.maxElementBytes) return;
    this.stop();
    throw new TooLarge(this.maxElementBytes, this.count);
  }

  private emit(chunk: Buffer, start: number, end: number): void {
    let text: string;
    this.checkSize(this.pieces.length ? this.piecesBytes + end : end - start);
    if (!this.pieces.length) text = chunk.toString('utf8', start, end);
    else {
      this.pieces.push(chunk.subarray(0, end));
      text = Buffer.concat(this.pieces).toString('utf8');
      this.pieces = [];
      this.piecesBytes = 0;
    }
    this.started = false;
    this.afterComma = false;
    this.count++;
    this.onElement(text);
  }

  private fail(): number {
    this.stop();
    return Number.MAX_SAFE_INTEGER;
  }
}

/** Backslashes immediately before `end`, counting back no further than `floor`. */
function backslashesBefore(chunk: Buffer, end: number, floor: number): number {
  let k = 0;
  for (let j = end - 1; j >= floor && chunk[j] === BACKSLASH; j--) k++;
  return k;
}
