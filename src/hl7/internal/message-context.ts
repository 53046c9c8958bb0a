/**
 * The per-message context every segment builder receives: the directory look-ups and the charset evidence
 * for MSH-18. A message builder creates one (`prepareMessage`) and passes it down; nothing about a message
 * is kept between calls.
 */
import type { CharsetEvidence } from './charset-evidence.js';
import type { DirectoryIndex } from './directory-index.js';

/** What the builders of one message share. */
export interface MessageContext extends CharsetEvidence {
  /** Directory look-ups by id, the assigning authority of chart ids, and the XCN values built so far. */
  readonly dir: DirectoryIndex;
}

