/**
 * A fast non-cryptographic 128-bit streaming hash of UTF-16 code units (four multiply-xor lanes in the style
 * of cyrb128), in plain JavaScript so that the core runs in browsers and edge runtimes. Not collision
 * resistant against crafted input: use SHA-256 (`sha256.ts`) where that matters.
 */
import { keepShape } from './kept-shapes.js';

function hex32(word: number): string {
  return (word >>> 0).toString(16).padStart(8, '0');
}

/** A streaming fast 128-bit hash of UTF-16 code units. */
export interface ContentHash {
  /** Feed one string; a separator is mixed in after it so that `['ab','c']` and `['a','bc']` differ. */
  update(text: string): void;
  /** The digest as 32 lowercase hex digits. The state is not reset. */
  digestHex(): string;
}

/**
 * The hash state: a class, so that `update` and `digestHex` are one function each for every hash. As methods of an
 * object literal they were new closures per hash, and V8 optimized each one's loop again: the NDJSON writer's few
 * hashes per export (shared resources, a 19 KB Questionnaire among them) then ran mostly unoptimized, 2–3 ms of a
 * 60 ms export of the bench chart.
 */
class Cyrb128 implements ContentHash {
  // The lanes as signed 32-bit values (the bits of 1779033703, 3144134277, 1013904242, 2773480762), as `^` reads them.
  private h1 = 1779033703;
  private h2 = -1150833019;
  private h3 = 1013904242;
  private h4 = -1521486534;

  update(text: string): void {
    // The four lanes are local variables in the loop: a helper call per character costs several times more.
    let a = this.h1;
    let b = this.h2;
    let c = this.h3;
    let d = this.h4;
    // 0x10000 is not a UTF-16 code unit, so it ends each fed string unambiguously.
    for (let i = 0; i <= text.length; i++) {
      const k = i < text.length ? text.charCodeAt(i) : 0x10000;
      a = b ^ Math.imul(a ^ k, 597399067);
      b = c ^ Math.imul(b ^ k, 2869860233);
      c = d ^ Math.imul(c ^ k, 951274213);
      d = a ^ Math.imul(d ^ k, 2716044179);
    }
    this.h1 = a;
    this.h2 = b;
    this.h3 = c;
    this.h4 = d;
  }

  digestHex(): string {
    let a = this.h1;
    let b = this.h2;
    let c = this.h3;
    let d = this.h4;
    a = Math.imul(c ^ (a >>> 18), 597399067);
    b = Math.imul(d ^ (b >>> 22), 2869860233);
    c = Math.imul(a ^ (c >>> 17), 951274213);
    d = Math.imul(b ^ (d >>> 19), 2716044179);
    a ^= b ^ c ^ d;
    b ^= a;
    c ^= a;
    d ^= a;
    return hex32(a) + hex32(b) + hex32(c) + hex32(d);
  }
}

// One hash kept alive, so that the class's hidden class (and the code optimized for it) outlives full collections.
keepShape(new Cyrb128());

/**
 * Create a fast non-cryptographic 128-bit streaming hash (cyrb128-style lanes).
 * @returns a fresh hash state
 * @example const h = createContentHash(); h.update('Bundle'); h.digestHex() // 32 hex digits
 */
export function createContentHash(): ContentHash {
  return new Cyrb128();
}
