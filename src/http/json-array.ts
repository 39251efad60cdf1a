// A JSON array body taken apart as it arrives: the bytes are split into the text of each top-level element,
// each element is JSON.parse'd and validated on its own, and a collector keeps only what the caller needs. A
// 100 MB list is then never held as one string, one tree of objects and one validated copy at once (800 MB).
// A body of up to WHOLE_BYTES (a list of a few hundred blogs) is held instead and parsed whole when it ends,
// with the same outcome: for a body that small the scanner only costs time.
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
import { check, type FieldIssue, type Schema } from '../schemas/validate.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
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
 * A streamed array as a whole over its limits: more bytes than `maxBytes` (`items` undefined) or more
 * elements than `items`. Its elements are small, but the caller keeps them all: without a bound, a server
 * streaming an endless list fills the memory until the process dies.
 */
export class ListTooLarge extends Error {
  constructor(
    readonly max: number,
    readonly unit: 'bytes' | 'items',
  ) {
    super('list too large');
  }
}

/** The bounds of a streamed array as a whole (ListTooLarge); each element has the response's own. */
export interface ListLimits {
  maxBytes: number;
  maxItems: number;
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

/** What keeps the validated elements the caller needs, in order; one per attempt, so a retry starts afresh. */
export interface ArrayCollector<T, R> {
  add(item: T): void;
  done(): R;
}

/**
 * Only the start of an invalid body is needed for its error message (cleanSnippet reads its first 64 Ki
 * UTF-16 units, which at most 4 bytes per 2 units and 3 bytes per unit fit in 256 KiB).
 */
export const HEAD_BYTES = 256 * 1024;
/**
 * A body up to this size is parsed whole, with one JSON.parse, when it ends: a list of a hundred blogs is
 * then never split in JavaScript at all (the scanner runs in V8's interpreter in a command this short, and
 * makes a string of each element), and every element is validated in order as before. A larger body is
 * streamed from its first byte on.
 */
export const WHOLE_BYTES = 1024 * 1024;
/** zod's array check reports every element's issues; the error message shows the first three. */
const MAX_ISSUES = 3;

/**
 * How a streamed body ended:
 * - `items`: a valid array, every element valid; `value` is the collector's result;
 * - `buffered`: not an array (or empty): the whole body, for the same handling as any other response;
 * - `not-json`: an array that is not valid JSON; `head` is the start of the body, from its `[`;
 * - `invalid`: valid JSON whose elements failed the schema (the first issues, paths from the body's root).
 */
export type StreamedOutcome<R> =
  | { kind: 'items'; value: R }
  | { kind: 'buffered'; text: string }
  | { kind: 'not-json'; head: string }
  | { kind: 'invalid'; issues: FieldIssue[] };

/** Feeds a response body through the splitter into a collector; see StreamedOutcome. */
export class StreamedArray<T, R> {
  private readonly splitter: JsonArraySplitter;
  /** Everything before the `[` (whitespace), or the whole body once it is known not to be an array. */
  private leading: Buffer[] = [];
  private leadingBytes = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  private issues: FieldIssue[] = [];
  private index = 0;
  private failure: { error: unknown } | undefined;

  /** Elements parsed before the schema was there, with their index: validated as soon as it is. */
  private waiting: { index: number; value: unknown }[] = [];

  /**
   * maxBytes: the largest element, and the largest body that is not an array (TooLarge from push). The item
   * schema may be a function answering undefined while the schema is still loading (requestArray): the
   * elements that arrive meanwhile wait, parsed, and are validated in order once it answers — at the latest
   * in end(), which needs it.
   */
  constructor(
    item: Schema<T> | (() => Schema<T> | undefined),
    private readonly collector: ArrayCollector<T, R>,
    private readonly maxBytes = Infinity,
    /** Bodies up to this size are parsed whole at end() (WHOLE_BYTES); never more than maxBytes. */
    wholeBytes = WHOLE_BYTES,
    private readonly list: ListLimits = { maxBytes: Infinity, maxItems: Infinity },
  ) {
    this.item = typeof item === 'function' ? item : () => item;
    this.splitter = new JsonArraySplitter((text) => this.element(text), maxBytes);
    this.wholeLimit = Math.min(wholeBytes, maxBytes);
    this.whole = this.wholeLimit > 0 ? [] : undefined;
  }

  private readonly item: () => Schema<T> | undefined;
  /** The body so far while it is small enough to be parsed whole; undefined once it streams. */
  private whole: Buffer[] | undefined;
  private wholeSize = 0;
  private readonly wholeLimit: number;

  private totalBytes = 0;

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    if (this.totalBytes > this.list.maxBytes) throw new ListTooLarge(this.list.maxBytes, 'bytes');
    const whole = this.whole;
    if (whole) {
      if (this.wholeSize + chunk.length <= this.wholeLimit) {
        whole.push(chunk);
        this.wholeSize += chunk.length;
        return;
      }
      // Too large to wait for: what was held streams first, then this chunk and the rest.
      this.whole = undefined;
      for (const held of whole) this.stream(held);
    }
    this.stream(chunk);
  }

  private stream(chunk: Buffer): void {
    const state: SplitState = this.splitter.state;
    if (state === 'not-array') {
      this.keepLeading(chunk);
    } else if (state === 'start') {
      this.splitter.push(chunk);
      const now: SplitState = this.splitter.state;
      if (now === 'start' || now === 'not-array') {
        this.keepLeading(chunk);
      } else {
        this.keepHead(chunk.subarray(chunk.indexOf(OPEN_ARRAY)));
        this.leading = [];
      }
    } else {
      this.keepHead(chunk);
      if (state !== 'invalid') this.splitter.push(chunk);
    }
  }

  end(): StreamedOutcome<R> {
    if (this.whole) return this.endWhole(Buffer.concat(this.whole, this.wholeSize));
    const state = this.splitter.end();
    if (this.waiting.length) {
      const item = this.item();
      if (!item) throw new Error('the list was read before its schema was loaded');
      this.validateWaiting(item);
    }
    if (this.failure) throw this.failure.error;
    if (state === 'start' || state === 'not-array')
      return { kind: 'buffered', text: Buffer.concat(this.leading).toString('utf8') };
    if (state === 'invalid') return { kind: 'not-json', head: Buffer.concat(this.head).toString('utf8') };
    if (this.issues.length) return { kind: 'invalid', issues: this.issues };
    return { kind: 'items', value: this.collector.done() };
  }

  /** A body held whole: the outcome streaming it would have had (json-array.test.ts compares the two). */
  private endWhole(body: Buffer): StreamedOutcome<R> {
    this.whole = undefined;
    let values: unknown;
    try {
      values = JSON.parse(body.toString('utf8'));
    } catch {
      values = undefined;
    }
    // Anything but a JSON array (not JSON, empty, another value) streams after all: the streaming rules say
    // what it is, and which comes first when there is more than one thing wrong (a schema issue, the
    // collector failing, a syntax error further on).
    if (!Array.isArray(values)) {
      this.stream(body);
      return this.end();
    }
    if (values.length > this.list.maxItems) throw new ListTooLarge(this.list.maxItems, 'items');
    if (values.length) {
      const item = this.item();
      if (!item) throw new Error('the list was read before its schema was loaded');
      for (let i = 0; i < values.length && this.issues.length < MAX_ISSUES && !this.failure; i++)
        this.validate(item, i, values[i]);
    }
    if (this.failure) throw this.failure.error;
    if (this.issues.length) return { kind: 'invalid', issues: this.issues };
    return { kind: 'items', value: this.collector.done() };
  }

  /** Elements validated elsewhere (a body that was read whole), through the same collector. */
  collect(values: readonly T[]): R {
    for (const value of values) this.collector.add(value);
    return this.collector.done();
  }

  private keepLeading(chunk: Buffer): void {
    this.leadingBytes += chunk.length;
    if (this.leadingBytes > this.maxBytes) throw new TooLarge(this.maxBytes);
    this.leading.push(chunk);
  }

  private keepHead(chunk: Buffer): void {
    if (this.headBytes >= HEAD_BYTES) return;
    const part = chunk.subarray(0, HEAD_BYTES - this.headBytes);
    // A copy: a subarray would keep the whole chunk alive.
    this.head.push(Buffer.from(part));
    this.headBytes += part.length;
  }

  private element(text: string): void {
    const index = this.index++;
    if (index >= this.list.maxItems) throw new ListTooLarge(this.list.maxItems, 'items');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.splitter.stop();
      return;
    }
    // After the third issue only the syntax of the rest matters (a later syntax error still wins).
    if (this.issues.length >= MAX_ISSUES) return;
    const item = this.item();
    if (!item) return void this.waiting.push({ index, value });
    if (this.waiting.length) this.validateWaiting(item);
    this.validate(item, index, value);
  }

  private validateWaiting(item: Schema<T>): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const { index, value } of waiting) {
      if (this.issues.length >= MAX_ISSUES) return;
      this.validate(item, index, value);
    }
  }

  private validate(item: Schema<T>, index: number, value: unknown): void {
    const result = check(item, value, `[${index}]`);
    if (!result.ok) {
      this.issues.push(...result.issues.slice(0, MAX_ISSUES - this.issues.length));
      return;
    }
    if (this.issues.length || this.failure) return;
    try {
      this.collector.add(result.value);
    } catch (error) {
      // Thrown from end(), not from inside the body loop, where it would read as a network failure.
      this.failure = { error };
      this.splitter.stop();
    }
  }
}
