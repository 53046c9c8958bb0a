/**
 * The hex escape of a control character (HL7 v2.5.1 chapter 2, 2.7.4 "\Xdddd\": hexadecimal data). Text types
 * (ST, TX, FT) hold printable characters, so every control character (C0 U+0000–U+001F with tab, CR and LF,
 * DEL U+007F, C1 U+0080–U+009F) is sent as the hex escape of its UTF-8 bytes.
 */

const HEX = '0123456789ABCDEF';

/**
 * The hex escape of a control character (C0, DEL or C1) with escape character `e`: its UTF-8 bytes in upper-case
 * hex, `\X09\` for tab, `\X7F\` for DEL, `\XC285\` for U+0085 (a C1 character is two bytes, C2 then itself).
 * @param code - the character's code, 0x00–0x1F, 0x7F or 0x80–0x9F
 * @param e - the escape character
 * @returns the escape sequence
 * @example controlEscape(9, '\\') // '\\X09\\'
 */
export function controlEscape(code: number, e: string): string {
  const byte = HEX.charAt(code >> 4) + HEX.charAt(code & 15);
  return code < 0x80 ? `${e}X${byte}${e}` : `${e}XC2${byte}${e}`;
}
