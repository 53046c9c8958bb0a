/**
 * Runs the consumer-style property tests of examples/testing-kit.property.test.mjs (importing the package by
 * name, so against dist/): this repository's vitest config only collects files under test/.
 */
import '../../examples/testing-kit.property.test.mjs';
