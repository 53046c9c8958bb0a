/**
 * The packed package in a temporary consumer project, as a user installs it: `npm pack` once, the tarball
 * unpacked into `node_modules/chart-export`, and the packages a consumer would install next to it linked from
 * this repository's node_modules (no network).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** This repository's node_modules, where linked packages come from. */
export const ROOT_MODULES = join(ROOT, 'node_modules');

/**
 * Link a directory as a package (or any folder) of a consumer project.
 * @param target - the directory linked to
 * @param path - where the link goes (its parent folders are made)
 */
export function link(target: string, path: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  symlinkSync(target, path, 'dir');
}

/**
 * Pack the package (`npm pack`, as published; `npm test` has built dist) into `dir` and unpack the tarball
 * into `dir/node_modules/chart-export`, then link the named packages of this repository's node_modules into
 * `dir/node_modules` (`@types/fhir`, the package's one dependency, always).
 * @param dir - the consumer project's folder
 * @param packages - further packages the consumer has installed (`typescript`, `fast-check`, `vitest`)
 * @returns the unpacked package's folder
 */
export function installPackedPackage(dir: string, packages: readonly string[] = []): string {
  const packed = execFileSync('npm', ['pack', '--pack-destination', dir, '--ignore-scripts', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [{ filename }] = JSON.parse(packed) as [{ filename: string }];
  const pkgDir = join(dir, 'node_modules/chart-export');
  mkdirSync(pkgDir, { recursive: true });
  execFileSync('tar', ['-xzf', join(dir, filename), '-C', pkgDir, '--strip-components=1']);
  for (const name of ['@types/fhir', ...packages]) link(join(ROOT_MODULES, name), join(dir, 'node_modules', name));
  return pkgDir;
}
