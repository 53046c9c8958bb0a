/**
 * A fast non-cryptographic 128-bit streaming hash of UTF-16 code units (four multiply-xor lanes in the style
 * of cyrb128), in plain JavaScript so that the core runs in browsers and edge runtimes. Not collision
 * resistant against crafted input: use SHA-256 (`sha256.ts`) where that matters.
 */

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
 * Create a fast non-cryptographic 128-bit streaming hash (cyrb128-style lanes).
 * @returns a fresh hash state
 * @example const h = createContentHash(); h.update('Bundle'); h.digestHex() // 32 hex digits
 */
export function createContentHash(): ContentHash {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  return {
    update(text: string): void {
      // The four lanes are local variables in the loop: a helper call per character costs several times more.
      let a = h1;
      let b = h2;
      let c = h3;
      let d = h4;
      // 0x10000 is not a UTF-16 code unit, so it ends each fed string unambiguously.
      for (let i = 0; i <= text.length; i++) {
        const k = i < text.length ? text.charCodeAt(i) : 0x10000;
        a = b ^ Math.imul(a ^ k, 597399067);
        b = c ^ Math.imul(b ^ k, 2869860233);
        c = d ^ Math.imul(c ^ k, 951274213);
        d = a ^ Math.imul(d ^ k, 2716044179);
      }
      h1 = a;
      h2 = b;
      h3 = c;
      h4 = d;
    },
    digestHex(): string {
      let a = h1;
      let b = h2;
      let c = h3;
      let d = h4;
      a = Math.imul(c ^ (a >>> 18), 597399067);
      b = Math.imul(d ^ (b >>> 22), 2869860233);
      c = Math.imul(a ^ (c >>> 17), 951274213);
      d = Math.imul(b ^ (d >>> 19), 2716044179);
      a ^= b ^ c ^ d;
      b ^= a;
      c ^= a;
      d ^= a;
      return hex32(a) + hex32(b) + hex32(c) + hex32(d);
    },
  };
}
