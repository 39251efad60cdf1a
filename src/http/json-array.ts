// A JSON array body taken apart as it arrives: the bytes are split into the text of each top-level element,
// each element is JSON.parse'd and validated on its own, and a collector keeps only what the caller needs. A
// 100 MB list is then never held as one string, one tree of objects and one validated copy at once (800 MB).
// A body of up to WHOLE_BYTES (a list of a few hundred blogs) is held instead and parsed whole when it ends,
// with the same outcome: for a body that small the scanner only costs time.
// The bytes are split by json-array-split.ts.
import { check, type FieldIssue, type Schema } from '../schemas/validate.js';
import { JsonArraySplitter, OPEN_ARRAY, TooLarge, type SplitState } from './json-array-split.js';

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
