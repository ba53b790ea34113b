// End-to-end test of `twindex mcp` with the reference TypeScript MCP client.
//
//   node e2e.mjs /path/to/twindex
//
// Spawns the server over stdio on a fresh index, lists the tools, upserts
// documents, searches in every mode, pages with nextOffset, reads, removes,
// indexes a folder with progress, and asserts on structuredContent. Exits
// non-zero with the server's stderr on the first failed assertion.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

const bin = process.argv[2];
if (!bin) {
  console.error("usage: node e2e.mjs /path/to/twindex");
  process.exit(2);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "twindex-mcp-e2e-"));
const indexDir = path.join(tmp, "idx");
// The folder the server mirrors: its root, fixed at start. Not watched,
// so that index_path below is what indexes it.
const folder = path.join(tmp, "folder");
fs.mkdirSync(folder);
const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", folder, "--index", indexDir, "--no-watch", "--log-level", "debug"],
  stderr: "pipe",
});
let stderr = "";
transport.stderr?.on("data", (b) => (stderr += b));
const client = new Client({ name: "twindex-e2e", version: "1.0.0" });

function text(res) {
  return res.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

async function call(name, args, opts) {
  return client.callTool({ name, arguments: args }, CallToolResultSchema, opts);
}

async function ok(name, args, opts) {
  const res = await call(name, args, opts);
  assert.ok(!res.isError, `${name} ${JSON.stringify(args)} failed: ${text(res)}`);
  assert.ok(res.structuredContent, `${name}: no structuredContent`);
  return res.structuredContent;
}

async function main() {
  await client.connect(transport);
  const proc = transport._process; // to check the exit status after close

  // Tools and their schemas.
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.deepEqual(Object.keys(byName).sort(), ["backlinks", "get", "index_path", "remove", "search", "stats", "upsert"]);
  const search = byName.search;
  assert.equal(search.annotations.readOnlyHint, true);
  assert.equal(search.annotations.destructiveHint, false);
  assert.equal(search.annotations.idempotentHint, true);
  assert.equal(search.annotations.openWorldHint, false);
  assert.deepEqual(search.inputSchema.required, ["query"]);
  const lim = search.inputSchema.properties.limit;
  assert.equal(lim.minimum, 1);
  assert.equal(lim.maximum, 50);
  assert.equal(lim.default, 10);
  assert.deepEqual(search.inputSchema.properties.mode.enum, ["auto", "substring", "text", "vector", "hybrid", "substring+vector", "text+vector"]);
  assert.match(search.description, /nextOffset/);
  assert.ok(search.outputSchema, "search has no output schema");
  assert.equal(byName.remove.annotations.destructiveHint, true);

  // Upsert.
  const docs = [];
  for (let i = 0; i < 15; i++) {
    docs.push({
      id: `doc-${String(i).padStart(2, "0")}`,
      kind: i % 3 === 0 ? "spec" : "note",
      title: `Note ${i}`,
      body: `opening the widgetFactory ${i} times`,
      tags: ["e2e"],
      ts: `2024-03-${String(i + 1).padStart(2, "0")}`,
    });
  }
  const up = await ok("upsert", { docs });
  assert.equal(up.ids.length, 15);

  // Every mode, paged with nextOffset.
  for (const [mode, query] of [["auto", "widgetfactory"], ["substring", "dgetFact"], ["text", "opened"]]) {
    const seen = new Set();
    let offset = 0;
    for (let page = 0; page < 10; page++) {
      const r = await ok("search", { query, mode, limit: 4, offset });
      assert.equal(r.total, 15, `${mode}: total`);
      assert.ok(Array.isArray(r.hits));
      for (const h of r.hits) {
        for (const k of ["id", "kind", "title", "field", "snippet", "score", "matchedIn"]) {
          assert.ok(k in h, `${mode}: hit lacks ${k}: ${JSON.stringify(h)}`);
        }
        assert.match(h.snippet, /<mark>/);
        seen.add(h.id);
      }
      assert.equal(r.truncated, r.nextOffset !== null);
      if (r.nextOffset === null) break;
      assert.equal(r.nextOffset, offset + r.hits.length);
      offset = r.nextOffset;
    }
    assert.equal(seen.size, 15, `${mode}: paging saw ${seen.size} documents`);
  }

  // Filters and explain.
  const f = await ok("search", { query: "widgetfactory", kinds: ["spec"], order: "date_desc", explain: true, since: "2024-03-04" });
  assert.deepEqual(f.hits.map((h) => h.id), ["doc-12", "doc-09", "doc-06", "doc-03"]);
  assert.ok(f.hits[0].explain && f.hits[0].explain.legs.length > 0);

  // Bad input is a tool error with a helpful message.
  for (const [args, want] of [
    [{ query: "x", limit: 51 }, /1 to 50/],
    [{ query: "" }, /query is empty/],
    [{ query: "x", mode: "fuzzy" }, /auto.*substring.*text/],
    [{ query: "x", since: "last week" }, /2024-05-01/],
  ]) {
    const res = await call("search", args);
    assert.equal(res.isError, true, `search ${JSON.stringify(args)} should fail`);
    assert.match(text(res), want);
  }

  // Get, with a capped body.
  const g = await ok("get", { ids: ["doc-01", "nope"], maxBytes: 10 });
  assert.equal(g.documents[0].id, "doc-01");
  assert.equal(g.documents[0].body, "opening th");
  assert.equal(g.documents[0].truncated, true);
  assert.equal(g.documents[0].nextOffset, 10);
  assert.deepEqual(g.missing, ["nope"]);

  // Remove.
  const rm = await ok("remove", { ids: ["doc-00", "doc-01", "doc-02", "nope"] });
  assert.deepEqual(rm, { removed: 3, requested: 4 });
  assert.equal((await ok("search", { query: "widgetfactory" })).total, 12);

  // index_path with progress; a path outside the root is refused.
  const outside = await call("index_path", { path: tmp });
  assert.equal(outside.isError, true);
  assert.match(text(outside), /outside the index root/);
  fs.mkdirSync(path.join(folder, "src", "gen"), { recursive: true });
  fs.writeFileSync(path.join(folder, "README.md"), "# Demo\nHow to frobnicate.\n");
  fs.writeFileSync(path.join(folder, "src", "main.go"), "package main\n\nfunc frobnicate() {}\n");
  // Enough files that indexing them outlasts the server's spacing of
  // progress notifications: this client drops the notifications that reach
  // it in the same read as the result (typescript-sdk issue #2580), which
  // for a few files are all of them.
  const generated = 3000;
  for (let i = 0; i < generated; i++) {
    fs.writeFileSync(path.join(folder, "src", "gen", `g${i}.go`), `package gen\n\n// Gen${i} is generated ${"filler text ".repeat(40)}\nfunc Gen${i}() {}\n`);
  }
  const changed = generated + 2;
  const progress = [];
  const ip = await ok("index_path", { path: folder }, { onprogress: (p) => progress.push(p) });
  assert.equal(ip.written, changed + 2); // the files, src and src/gen
  assert.ok(progress.length > 0, "no progress notifications");
  for (const p of progress) {
    assert.equal(p.total, changed, JSON.stringify(progress));
    assert.ok(p.progress >= 0 && p.progress <= changed, JSON.stringify(progress));
  }
  const fr = await ok("search", { query: "frobnicate", kinds: ["code"] });
  assert.deepEqual(fr.hits.map((h) => h.id), ["src/main.go"]);

  // Stats and counters.
  const st = await ok("stats", {});
  assert.equal(st.docs, 12 + changed + 2);
  assert.ok(st.searches.served >= 10 && st.searches.withHits >= 10 && st.searches.snippetBytes > 0);

  // Closing stdin stops the server cleanly and releases the index.
  await client.close();
  if (proc && proc.exitCode === null) {
    await new Promise((resolve) => proc.once("exit", resolve));
  }
  assert.equal(proc?.exitCode, 0, "server exit status");
  execFileSync(bin, ["stats", "--index", indexDir], { stdio: "pipe" });
  console.log("twindex mcp e2e: ok");
}

main()
  .catch(async (err) => {
    console.error(err);
    console.error("--- server stderr ---\n" + stderr);
    process.exitCode = 1;
    await client.close().catch(() => {});
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
