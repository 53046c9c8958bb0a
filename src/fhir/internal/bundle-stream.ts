/**
 * A Bundle as JSON text in chunks, byte for byte `JSON.stringify` of the Bundle the builder gives. The head
 * (`id`, `total`) comes before the entries but depends on all of them (the default id hashes every entry's type
 * and id), so the entries are walked twice: once for their types and ids only, once to write them. Each walk
 * maps one resource at a time, so memory holds one resource (and the short list of types and ids), never the
 * whole Bundle, and the walk gives the event loop back at least every `maxHoldMs`.
 */
import type * as fhir from 'fhir/r4.js';
import { MappingError } from '../../errors.js';
import { createPacer, type StreamSettings } from '../../internal/pacing.js';
import type { BundleMember } from '../ids.js';
import { bundleEntry, bundleHead, fullUrlPrefix } from './bundle.js';
import type { ResolvedOptions } from './resolve-options.js';

/**
 * Stream a Bundle of `resources()` (called twice; each call must give the same types and ids in the same order).
 * @param type - the Bundle type
 * @param resources - the entries' resources, mapped afresh on each call
 * @param resolved - the builder's resolved options
 * @param settings - chunk size and event-loop budget
 * @throws {MappingError} (from the iteration) when the two walks disagree, which a pure mapper never does
 */
export async function* streamBundle(
  type: 'collection' | 'searchset',
  resources: () => Iterable<fhir.FhirResource>,
  resolved: ResolvedOptions,
  settings: StreamSettings,
): AsyncGenerator<string, void, undefined> {
  const pacer = createPacer(settings.maxHoldMs);
  // Walk 1: types and ids only (for the default id and total); each resource is dropped once read.
  const members: BundleMember[] = [];
  for (const resource of resources()) {
    members.push({ resourceType: resource.resourceType, id: resource.id as string });
    if (pacer.due()) await pacer.pause();
  }
  const head = JSON.stringify(bundleHead(type, members, resolved));
  if (members.length === 0) {
    yield head;
    return;
  }
  // Walk 2: `{…head,"entry":[e1,e2,…]}`, which is what JSON.stringify gives for the whole Bundle.
  const prefix = fullUrlPrefix(resolved);
  let chunk = `${head.slice(0, -1)},"entry":[`;
  let i = 0;
  for (const resource of resources()) {
    const member = members[i];
    if (member === undefined || member.resourceType !== resource.resourceType || member.id !== resource.id) {
      throw new MappingError(['entry', i], 'Bundle.entry', 'differs between the two walks of a streamed Bundle');
    }
    chunk += `${i === 0 ? '' : ','}${JSON.stringify(bundleEntry(type, resource, prefix))}`;
    i++;
    if (chunk.length >= settings.chunkChars) {
      yield chunk;
      chunk = '';
    }
    if (pacer.due()) await pacer.pause();
  }
  if (i !== members.length) throw new MappingError(['entry', i], 'Bundle.entry', 'differs between the two walks of a streamed Bundle');
  yield `${chunk}]}`;
}
