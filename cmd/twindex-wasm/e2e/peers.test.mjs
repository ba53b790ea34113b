// The peer comparison of issue #19: twindex against the JavaScript search
// libraries a web developer would pick, in one headless Chromium page, on
// the demo's documents and the same 100 keystrokes as demo.test.mjs.
//
// Libraries (pinned in package.json, installed by npm ci): MiniSearch
// (prefix + fuzzy 0.2), Orama (defaults), FlexSearch Document (forward
// tokenizer). Each is built $PEERS_ROUNDS times (default 2), alternating
// with the others; build times, heap growth and keystroke latencies are
// the medians and percentiles over all rounds. twindex is the page's own
// engine, loaded from the prebuilt snapshot as a visitor gets it; its
// keystroke time is the engine's (Result.tookMs: search, totals and the
// snippets of the 10 hits) and, beside it, the whole call from JavaScript.
// Each library also types the session a second time with a frame between
// keystrokes, as a user's keystrokes come (only the search is timed): on
// this machine a search after a pause takes about twice its time back to
// back.
//
// Substring quality: for 10 fragments from inside identifiers (such as
// "ttp.Han" or "eadAll"), the documents whose title or body holds the
// fragment (case-insensitively) are the truth; recall is the share of them
// among a library's first 100 results, P@10 the share of its first 10
// results that hold the fragment. twindex is asked in substring mode and
// must be exact (this test fails otherwise); the others get the fragment as
// their query.
//
// Environment as demo.test.mjs: TWINDEX_URL (run.sh sets it), E2E_OUT,
// CHROMIUM. The table is printed and written to $E2E_OUT/peers.md.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const url = process.env.TWINDEX_URL;
const out = process.env.E2E_OUT || fs.mkdtempSync(path.join(os.tmpdir(), 'twindex-peers-'));
const rounds = Number(process.env.PEERS_ROUNDS || 2);
const modules = path.join(path.dirname(fileURLToPath(import.meta.url)), 'node_modules');

// The libraries' browser builds, served to the page under /peers/ from
// node_modules; shipped counts the gzip -9 bytes of each file fetched.
const ENTRY = {
  minisearch: 'minisearch/dist/es/index.js',
  orama: '@orama/orama/dist/browser/index.js',
  flexsearch: 'flexsearch/dist/flexsearch.bundle.module.min.js',
};
const shipped = {}; // library -> gzip bytes

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// The keystrokes of demo.test.mjs: each word typed a character at a time.
const WORDS = ['NewReader', 'ReadAll', 'http.Handler', 'close the file', 'Marshal', 'deadline', 'Itoa',
  'bufio.Scanner', 'errors.Is', 'Duration', 'WalkDir', 'mutex', 'TrimSpace', 'json decoder', 'ParseInt'];
const FRAGMENTS = ['ttp.Han', 'eadAll', 'arshalInd', 'nexpectedEO', 'oseIdle', 'uffere', 'rimSpa',
  'rrNotExi', 'ontext.Cance', 'tconv.Ato'];

let browser, page, cdp;
const metrics = {};

function report(name, value, unit) {
  metrics[name] = value;
  console.log(`METRIC ${name} ${typeof value === 'number' ? value.toFixed(3) : value} ${unit}`);
}

before(async () => {
  assert.ok(url, 'TWINDEX_URL is not set: run the test through run.sh');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: FLAGS, headless: true,
  });
  page = await browser.newPage();
  await page.route('**/peers/**', async (route) => {
    const rel = decodeURIComponent(new URL(route.request().url()).pathname.replace(/^.*\/peers\//, ''));
    const file = path.join(modules, rel);
    if (!file.startsWith(modules + path.sep) || !fs.existsSync(file)) return route.fulfill({ status: 404 });
    const body = fs.readFileSync(file);
    const lib = rel.startsWith('@orama/') ? 'orama' : rel.split('/')[0];
    shipped[lib] = (shipped[lib] || 0) + zlib.gzipSync(body, { level: 9 }).length;
    return route.fulfill({ status: 200, contentType: 'text/javascript', body });
  });
  cdp = await page.context().newCDPSession(page);
  await page.goto(url);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state),
    null, { timeout: 120_000, polling: 250 });
  assert.equal(await page.evaluate(() => window.twindexApp.error), null);
  // The page warms its engine up in idle moments after the load (app.js);
  // waited for, so that it runs neither beside the peers' rounds nor
  // during twindex's own.
  await page.evaluate(() => window.twindexApp.warmed);
});

after(async () => {
  if (browser) await browser.close();
});

// heap is the page's JavaScript heap in use after a full collection.
async function heap() {
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

const median = (xs) => pct(xs, 50);
function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p / 100 * s.length) - 1))];
}

test('twindex against MiniSearch, Orama and FlexSearch', { timeout: 600_000 }, async () => {
  const session = [];
  for (const w of WORDS) {
    for (let i = 1; i <= w.length && session.length < 100; i++) session.push(w.slice(0, i));
  }
  assert.equal(session.length, 100);

  // The libraries and the corpus, once; the page keeps them in globals.
  await page.evaluate(async (entry) => {
    const [mini, orama, flex] = await Promise.all(Object.values(entry).map((e) => import(`/peers/${e}`)));
    const docs = await (await fetch('corpus.json')).json();
    const text = new Map(docs.map((d) => [d.id, `${d.title}\n${d.body}`.toLowerCase()]));
    // Each library: build(docs) -> index; search(index, q, limit) -> ids.
    window.peers = {
      docs, text,
      libs: {
        minisearch: {
          build: (docs) => {
            const ms = new mini.default({ fields: ['title', 'body'], searchOptions: { prefix: true, fuzzy: 0.2 } });
            ms.addAll(docs);
            return ms;
          },
          search: (ms, q, limit) => ms.search(q).slice(0, limit).map((r) => r.id),
          serialized: (ms) => JSON.stringify(ms),
        },
        orama: {
          build: async (docs) => {
            const db = orama.create({ schema: { title: 'string', body: 'string' } });
            await orama.insertMultiple(db, docs.map((d) => ({ id: d.id, title: d.title, body: d.body })));
            return db;
          },
          search: async (db, q, limit) => (await orama.search(db, { term: q, limit })).hits.map((h) => h.id),
        },
        flexsearch: {
          build: (docs) => {
            const idx = new flex.Document({ document: { id: 'id', index: ['title', 'body'] }, tokenize: 'forward' });
            for (const d of docs) idx.add(d);
            return idx;
          },
          search: (idx, q, limit) => {
            const ids = [];
            for (const field of idx.search(q, { limit })) {
              for (const id of field.result) if (!ids.includes(id)) ids.push(id);
            }
            return ids.slice(0, limit);
          },
        },
      },
    };
  }, ENTRY);

  const results = { twindex: { build: [], heap: [], engine: [], call: [], paced: [] } };
  for (const lib of Object.keys(ENTRY)) results[lib] = { build: [], heap: [], call: [], paced: [] };

  for (let round = 0; round < rounds; round++) {
    // twindex: the keystrokes on the page's engine, as the page asks
    // (auto mode, 10 hits with snippets).
    const twRound = (paced) => page.evaluate(async ([session, paced]) => {
      const out = [];
      for (const q of session) {
        const t0 = performance.now();
        const r = await twindex.search(q, { mode: 'auto', limit: 10 });
        out.push({ call: performance.now() - t0, engine: r.tookMs });
        if (paced) await new Promise((r) => requestAnimationFrame(r));
      }
      return out;
    }, [session, paced]);
    const tw = await twRound(false);
    results.twindex.call.push(...tw.map((s) => s.call));
    results.twindex.engine.push(...tw.map((s) => s.engine));
    results.twindex.paced.push(...(await twRound(true)).map((s) => s.engine));

    for (const lib of Object.keys(ENTRY)) {
      const h0 = await heap();
      const buildMs = await page.evaluate(async (lib) => {
        const t0 = performance.now();
        window.peerIndex = await window.peers.libs[lib].build(window.peers.docs);
        return performance.now() - t0;
      }, lib);
      results[lib].build.push(buildMs);
      results[lib].heap.push((await heap()) - h0);
      const calls = (paced) => page.evaluate(async ([lib, session, paced]) => {
        const l = window.peers.libs[lib];
        const out = [];
        for (const q of session) {
          const t0 = performance.now();
          await l.search(window.peerIndex, q, 10);
          out.push(performance.now() - t0);
          if (paced) await new Promise((r) => requestAnimationFrame(r));
        }
        return out;
      }, [lib, session, paced]);
      results[lib].call.push(...await calls(false));
      results[lib].paced.push(...await calls(true));
      await page.evaluate(() => { window.peerIndex = null; });
    }
  }

  // Substring quality, on a fresh index of each library.
  const quality = await page.evaluate(async (fragments) => {
    const { docs, text, libs } = window.peers;
    const truth = (f) => docs.filter((d) => text.get(d.id).includes(f.toLowerCase())).map((d) => d.id);
    const score = (f, ids) => {
      const t = new Set(truth(f));
      const found = ids.filter((id) => t.has(id)).length;
      const top = ids.slice(0, 10);
      return {
        recall: t.size === 0 ? 1 : found / Math.min(t.size, 100),
        p10: top.length === 0 ? (t.size === 0 ? 1 : 0) : top.filter((id) => t.has(id)).length / top.length,
        truth: t.size,
      };
    };
    const out = { twindex: [] };
    for (const f of fragments) {
      const r = await twindex.search(f, { mode: 'substring', limit: 100 });
      const s = score(f, r.hits.map((h) => h.id));
      s.totalExact = r.total === s.truth;
      out.twindex.push(s);
    }
    for (const [lib, l] of Object.entries(libs)) {
      const idx = await l.build(docs);
      out[lib] = [];
      for (const f of fragments) out[lib].push(score(f, await l.search(idx, f, 100)));
      if (l.serialized) out[lib + '_serialized'] = l.serialized(idx);
    }
    return out;
  }, FRAGMENTS);

  const MiB = 1 << 20;
  const t = await page.evaluate(() => window.twindexApp.timings);
  const wasmBytes = await page.evaluate(() => window.twindexApp.memoryBytes());
  const gz = async (file) => zlib.gzipSync(Buffer.from(await (await fetch(new URL(file, url))).arrayBuffer()), { level: 9 }).length;
  const snapGz = Buffer.from(await (await fetch(new URL('index.snap.gz', url))).arrayBuffer()).length;
  const rows = [];
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const row = (lib, r, q, extra) => {
    const p50 = median(r.engine || r.call), p95 = pct(r.engine || r.call, 95);
    const recall = mean(q.map((s) => s.recall)), p10 = mean(q.map((s) => s.p10));
    report(`peer_${lib}_p50_ms`, p50, 'ms per keystroke');
    report(`peer_${lib}_p95_ms`, p95, 'ms per keystroke');
    report(`peer_${lib}_paced_p50_ms`, median(r.paced), 'ms per keystroke, a frame between keystrokes');
    report(`peer_${lib}_substring_recall`, recall, `(10 fragments, first 100 results)`);
    report(`peer_${lib}_substring_p_at_10`, p10, '');
    rows.push(`| ${lib} | ${extra.build} | ${extra.memory} | ${p50.toFixed(3)} | ${p95.toFixed(3)} | ${median(r.paced).toFixed(3)} | ${extra.shipped} | ${recall.toFixed(2)} / ${p10.toFixed(2)} |`);
  };
  row('twindex', results.twindex, quality.twindex, {
    build: `${(t.indexMs + t.trigramMs).toFixed(0)} (snapshot load and its trigram index; searchable at ${t.searchable.toFixed(0)}, ready at ${t.ready.toFixed(0)})`,
    memory: `${(wasmBytes / MiB).toFixed(1)} MiB wasm`,
    shipped: `${((await gz('twindex.wasm')) / 1e6).toFixed(2)} MB wasm + ${(snapGz / 1e6).toFixed(2)} MB snapshot`,
  });
  report('peer_twindex_call_p50_ms', median(results.twindex.call), 'ms per keystroke (the whole call from JavaScript)');
  report('peer_twindex_call_p95_ms', pct(results.twindex.call, 95), 'ms per keystroke (the whole call from JavaScript)');
  for (const lib of Object.keys(ENTRY)) {
    const r = results[lib];
    report(`peer_${lib}_build_ms`, median(r.build), 'ms (median build of the 3,000 documents)');
    report(`peer_${lib}_heap_mib`, median(r.heap) / MiB, 'MiB (JavaScript heap growth of one index)');
    let ship = `${(shipped[lib] / 1e3).toFixed(1)} KB`;
    const ser = quality[lib + '_serialized'];
    if (ser) ship += ` (+ ${(zlib.gzipSync(Buffer.from(ser), { level: 9 }).length / 1e3).toFixed(0)} KB serialized index)`;
    row(lib, r, quality[lib], { build: median(r.build).toFixed(0), memory: `+${(median(r.heap) / MiB).toFixed(1)} MiB heap`, shipped: ship });
  }
  const table = [
    `${rounds} rounds, 100 keystrokes each, ${new Date().toISOString()}`,
    '',
    '| library | build ms | memory | p50 ms | p95 ms | p50 ms, a frame apart | shipped, gzip -9 | substring recall / P@10 |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
  ].join('\n');
  console.log(table);
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'peers.md'), table + '\n');

  for (const [i, s] of quality.twindex.entries()) {
    assert.equal(s.recall, 1, `twindex missed documents holding ${FRAGMENTS[i]}`);
    assert.equal(s.p10, 1, `twindex ranked a document without ${FRAGMENTS[i]} in its first 10`);
    assert.ok(s.totalExact, `twindex's total for ${FRAGMENTS[i]} is not the number of documents holding it`);
  }
});
