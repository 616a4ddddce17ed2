/**
 * node:url for the browser bundles of tools/browser/: a file URL's path and back. Any other URL
 * (the page's own http://… address, which `import.meta.url` is there) maps to its path too, so
 * modules that find the course root from their own URL still get a "/"-rooted path.
 */
export function fileURLToPath(url: string | URL): string {
  return decodeURIComponent(new URL(String(url)).pathname);
}

export function pathToFileURL(path: string): URL {
  return new URL(`file://${encodeURI(path)}`);
}

export default { fileURLToPath, pathToFileURL };
