/**
 * The site server (tools/site/serve.ts) serves the built site and nothing else: no symbolic link
 * out of it, no method but GET and HEAD, no dotfiles, no path traversal (issue 15, item 14).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type RunningServer } from "../tools/site/serve.js";

const DIR = mkdtempSync(join(tmpdir(), "course-serve-"));
const SITE = join(DIR, "site");
const SECRET = "outside the site: never served";
let server: RunningServer;

/** A raw request (fetch would normalise `..` away before sending it). */
function get(path: string, method = "GET"): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, path, method }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(method === "POST" ? "x=1" : undefined);
  });
}

beforeAll(async () => {
  mkdirSync(join(SITE, "lessons"), { recursive: true });
  writeFileSync(join(SITE, "index.html"), "<h1>home</h1>\n");
  writeFileSync(join(SITE, "lessons", "index.html"), "<h1>lessons</h1>\n");
  writeFileSync(join(SITE, "style.css"), "body{}\n");
  writeFileSync(join(SITE, ".env"), "TOKEN=secret\n");
  mkdirSync(join(SITE, ".git"));
  writeFileSync(join(SITE, ".git", "config"), "[core]\n");
  writeFileSync(join(DIR, "secret.txt"), SECRET);
  mkdirSync(join(DIR, "private"));
  writeFileSync(join(DIR, "private", "index.html"), SECRET);
  symlinkSync(join(DIR, "secret.txt"), join(SITE, "leak.txt"));
  symlinkSync(join(DIR, "private"), join(SITE, "leaked-folder"));
  symlinkSync(join(SITE, "style.css"), join(SITE, "alias.css")); // a link that stays inside is fine
  server = await serveStatic(SITE, 0);
});

afterAll(async () => {
  await server?.close();
  rmSync(DIR, { recursive: true, force: true });
});

describe("the site server", () => {
  it("serves the site's files and folders' index.html, with their type", async () => {
    const home = await get("/");
    expect(home.status).toBe(200);
    expect(home.body).toContain("home");
    expect(home.headers["content-type"]).toMatch(/text\/html/);
    expect((await get("/lessons/")).body).toContain("lessons");
    expect((await get("/style.css?v=1")).headers["content-type"]).toMatch(/text\/css/);
    expect((await get("/alias.css")).status).toBe(200);
  });

  it("refuses a symbolic link that leads out of the site (file or folder)", async () => {
    for (const path of ["/leak.txt", "/leaked-folder/", "/leaked-folder/index.html"]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain(SECRET);
    }
  });

  it("refuses path traversal, encoded or not", async () => {
    for (const path of ["/../secret.txt", "/%2e%2e/secret.txt", "/lessons/..%2f..%2fsecret.txt", "/..%5csecret.txt"]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain(SECRET);
    }
  });

  it("does not serve dotfiles or dot-folders", async () => {
    for (const path of ["/.env", "/.git/config", "/lessons/../.env"]) expect((await get(path)).status, path).toBe(404);
  });

  it("answers GET and HEAD only: 405 with Allow for anything else", async () => {
    const head = await get("/index.html", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(Number(head.headers["content-length"])).toBe("<h1>home</h1>\n".length);
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await get("/index.html", method);
      expect(r.status, method).toBe(405);
      expect(r.headers.allow).toBe("GET, HEAD");
    }
  });
});
