/**
 * A small static file server for the built site (localhost only): `npm run site -- --serve` and
 * the browser test use it. It serves files of the site and nothing else: paths are resolved to
 * their real location (a symbolic link leading out of the site is refused), only GET and HEAD are
 * answered (405 otherwise), and dotfiles (.git, .env, the build's .course-site marker) are not
 * served (404).
 */
import { createReadStream, realpathSync, statSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".json": "application/json",
};

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root + sep);
}

/** The real path of `path` when it exists inside `root` (symbolic links resolved), else undefined. */
function realInside(root: string, path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return inside(root, real) ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The file a request path names inside `root` (a real path), or undefined: outside root (also
 * through a symbolic link), a dotfile or dot-folder on the way, or missing.
 */
function fileFor(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split(/[?#]/)[0]);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return undefined;
  if (decoded.split("/").some((part) => part.startsWith("."))) return undefined;
  const full = resolve(join(root, normalize(decoded)));
  if (!inside(root, full)) return undefined;
  let real = realInside(root, full);
  if (real && statSync(real).isDirectory()) real = realInside(root, join(real, "index.html"));
  return real && statSync(real).isFile() ? real : undefined;
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
  res.end(`${text}\n`);
}

/** Serves `root` on 127.0.0.1:`port` (0 picks a free port). Rejects when the port is taken. */
export function serveStatic(root: string, port: number): Promise<RunningServer> {
  const base = realpathSync(resolve(root));
  const server: Server = createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return plain(res, 405, "method not allowed", { allow: "GET, HEAD" });
    const file = fileFor(base, req.url ?? "/");
    if (!file) return plain(res, 404, "not found");
    res.writeHead(200, {
      "content-type": TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      "content-length": String(statSync(file).size),
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    createReadStream(file)
      .on("error", () => res.destroy())
      .pipe(res);
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const actual = (server.address() as AddressInfo).port;
      resolvePromise({
        url: `http://127.0.0.1:${actual}/`,
        port: actual,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
