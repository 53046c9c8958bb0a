/**
 * The per-message context the segment builders receive: the directory look-ups by id, the assigning authority
 * of chart ids, and the XCN values built so far. A message builder creates one (`prepareMessage`) and passes
 * it down; nothing about a message is kept between calls.
 */
import type { DirectoryIndex } from './directory-index.js';

/** What the builders of one message share. */
export interface MessageContext {
  /** Directory look-ups by id, the assigning authority of chart ids, and the XCN values built so far. */
  readonly dir: DirectoryIndex;
}

