/**
 * Writes companion/manifest.json's version, repository, bugs and maintainers from package.json,
 * so the archive Companion imports names what the package does, never a hand-kept copy. The
 * first step of `npm run package`; companion-module-build then stamps the runtime.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import { format, resolveConfig } from 'prettier';

const pkgFile = new URL('../package.json', import.meta.url);
const manifestFile = new URL('../companion/manifest.json', import.meta.url);
const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
const before = readFileSync(manifestFile, 'utf8');
const manifest = JSON.parse(before);

/** package.json's `repository`/`bugs`: a URL, or an object holding one. */
function urlOf(field, name) {
  const url = typeof field === 'string' ? field : field?.url;
  if (typeof url !== 'string' || url === '') throw new Error(`package.json: ${name} needs a URL`);
  return url;
}

/** package.json's `author`/`contributors`: an object, or "Name <email> (url)". */
function personOf(field) {
  if (typeof field === 'object' && field !== null && typeof field.name === 'string') {
    const { name, email, url } = field;
    return { name, ...(email ? { email } : {}), ...(url ? { url } : {}) };
  }
  const match =
    typeof field === 'string' ? /^([^<(]+?)\s*(?:<([^>]+)>)?\s*(?:\(([^)]+)\))?$/.exec(field) : null;
  if (!match) throw new Error('package.json: author needs a name');
  const [, name, email, url] = match;
  return { name, ...(email ? { email } : {}), ...(url ? { url } : {}) };
}

manifest.version = pkg.version;
manifest.repository = urlOf(pkg.repository, 'repository');
manifest.bugs = urlOf(pkg.bugs, 'bugs');
manifest.maintainers = [pkg.author, ...(pkg.contributors ?? [])].map(personOf);

const options = await resolveConfig(fileURLToPath(manifestFile));
const after = await format(JSON.stringify(manifest), { ...options, parser: 'json' });
if (after !== before) writeFileSync(manifestFile, after);
