/**
 * Runs the consumer-style property tests of examples/hl7-escaping.property.test.mjs (importing the package by
 * name, so against dist/): this repository's vitest config only collects files under test/.
 */
import '../../examples/hl7-escaping.property.test.mjs';
