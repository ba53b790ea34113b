// The twindex demo page: loads the engine (twindex.wasm) and the prebuilt
// index of the bundled corpus (index.snap.gz), and searches as the user
// types. Without the prebuilt index, or with ?index=browser in the URL,
// it indexes the corpus (corpus.json) in this tab instead, in slices.
//
// For tests and curious readers, window.twindexApp exposes:
//   searchable  Promise, resolved once the first slice is indexed, or the
//               prebuilt index is loaded but for its trigram index
//   ready       Promise, resolved once the whole corpus is indexed
//   timings     {wasmReady, searchable, ready, indexMs, trigramMs, source}:
//               ms since navigation start, indexMs the time spent loading
//               or indexing the corpus, trigramMs building the prebuilt
//               index's trigram index, source "snapshot" or "browser"
//   memoryBytes function: the size of the engine's WebAssembly memory
//   warmed      Promise, resolved with {searches, ms} once the warm-up
//               (below) is done; at once with ?warm=0, which skips it
// and every render dispatches a "twindex:rendered" event on document whose
// detail is {query, mode, kinds, explain, total, ms (the search call),
// engineMs (the engine's share of it), renderMs (building the DOM)}.
'use strict';

(() => {
  // The engine runs on the page's thread: while it indexes a slice of the
  // corpus the page cannot respond. Slices are sized to take about
  // SLICE_MS, starting small so that search is possible early.
  const SLICE_MS = 80, FIRST_SLICE = 25;
  const LIMIT = 10;   // hits per search: about two screens; more on request
  const CHUNK = 8192; // bytes per document when a dropped file is split

  const $ = (id) => document.getElementById(id);
  const input = $('q'), statusEl = $('status'), progress = $('progress');
  const summary = $('summary'), results = $('results'), empty = $('empty');
  const kindsBox = $('kinds'), explainBox = $('explain');

  let resolveSearchable, resolveReady, resolveWarmed;
  const app = window.twindexApp = {
    searchable: new Promise((r) => { resolveSearchable = r; }),
    ready: new Promise((r) => { resolveReady = r; }),
    warmed: new Promise((r) => { resolveWarmed = r; }),
    timings: {},
    error: null,
  };

  const state = { query: '', mode: 'auto', kinds: new Set(), explain: false };

  function setStatus(text, isError) {
    statusEl.textContent = text;
    statusEl.classList.toggle('error', !!isError);
  }

  function fail(what, err) {
    app.error = `${what}: ${err && err.message ? err.message : err}`;
    document.body.dataset.state = 'error';
    setStatus(app.error, true);
    console.error(what, err);
  }

  // ---- Loading ---------------------------------------------------------

  // early holds what index.html started: the engine's compilation and the
  // prebuilt index's download (null with ?index=browser).
  const early = window.twindexEarly || {};

  async function loadEngine() {
    const go = new Go();
    const engineReady = new Promise((r) => {
      if (window.twindex && window.twindex.ready) r();
      else window.addEventListener('twindex:ready', r, { once: true });
    });
    let module;
    try {
      module = await (early.engine || WebAssembly.compileStreaming(fetch('twindex.wasm')));
    } catch (e) {
      // A server without the application/wasm type: fall back to bytes.
      const bytes = await (await fetch('twindex.wasm')).arrayBuffer();
      module = await WebAssembly.compile(bytes);
    }
    const instance = await WebAssembly.instantiate(module, go.importObject);
    app.memoryBytes = () => instance.exports.mem.buffer.byteLength;
    go.run(instance).then(() => fail('engine', 'the Go program exited'));
    await engineReady;
    app.timings.wasmReady = performance.now();
  }

  const SNAPSHOT = 'index.snap.gz';
  const inBrowser = new URLSearchParams(location.search).get('index') === 'browser';

  // fetchSnapshot downloads and inflates the prebuilt index, beside the
  // engine's download and compilation; null when there is none.
  async function fetchSnapshot() {
    if (inBrowser) return null;
    const resp = await (early.snapshot || fetch(SNAPSHOT));
    if (!resp.ok) return null;
    const inflated = resp.body.pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(inflated).arrayBuffer());
  }

  // The prebuilt index holds the text, not the trigram index, which the
  // engine builds from it: nine tenths of a load. The page searches as
  // soon as the rest is in, the engine reading every document for
  // substrings meanwhile (exact, ranked without the trigram index), and
  // searches again once the trigram index is built.
  async function loadSnapshot(bytes) {
    setStatus('Loading the prebuilt index…');
    const t0 = performance.now();
    await twindex.load(bytes, { trigramsLater: true });
    app.timings.indexMs = performance.now() - t0;
    app.timings.source = 'snapshot';
    becomeSearchable();
    const t1 = performance.now();
    await twindex.buildTrigrams();
    app.timings.ready = performance.now();
    app.timings.trigramMs = app.timings.ready - t1;
    search(); // whatever was typed meanwhile, ranked with the trigram index
    const stats = await twindex.stats();
    setStatus(`${stats.docs} documents, prebuilt index loaded in ${((app.timings.ready - t0) / 1000).toFixed(1)} s.`);
    document.body.dataset.state = 'ready';
    resolveReady();
    warmUp();
  }

  async function loadCorpus() {
    app.timings.source = 'browser';
    setStatus('Loading the corpus…');
    const resp = await fetch('corpus.json');
    if (!resp.ok) throw new Error(`corpus.json: HTTP ${resp.status}`);
    const docs = await resp.json();
    progress.max = docs.length;
    progress.hidden = false;
    const t0 = performance.now();
    let slice = FIRST_SLICE;
    for (let i = 0; i < docs.length;) {
      const part = docs.slice(i, i + slice);
      const s0 = performance.now();
      await twindex.add(part);
      const took = performance.now() - s0;
      i += part.length;
      slice = Math.max(5, Math.min(500, Math.round(part.length * SLICE_MS / Math.max(took, 1))));
      progress.value = i;
      setStatus(`Indexing the Go standard library in this tab… ${i} / ${docs.length} documents (search away)`);
      if (i === part.length) becomeSearchable();
      // Let keystrokes and searches run between slices.
      await new Promise((r) => setTimeout(r, 0));
    }
    if (docs.length === 0) becomeSearchable();
    const secs = ((performance.now() - t0) / 1000).toFixed(1);
    progress.hidden = true;
    app.timings.ready = performance.now();
    app.timings.indexMs = performance.now() - t0;
    await refreshKinds();
    const stats = await twindex.stats();
    setStatus(`${stats.docs} documents, indexed in this tab in ${secs} s.`);
    document.body.dataset.state = 'ready';
    resolveReady();
    search(); // whatever was typed meanwhile, now against everything
    warmUp();
  }

  function becomeSearchable() {
    app.timings.searchable = performance.now();
    input.disabled = false;
    input.focus();
    document.body.dataset.state = 'searchable';
    resolveSearchable();
    refreshKinds();
    search();
  }

  // ---- Warming up --------------------------------------------------------

  // V8 first runs WebAssembly as Liftoff's quickly compiled code and
  // compiles a function with TurboFan, its optimizing compiler, only once
  // the function has run enough; until then a search takes up to twice as
  // long (the demo's 100 keystrokes back to back in a fresh page: engine
  // p50 0.9-1.6 ms in the first pass, 0.5 ms from the fourth on). So once
  // the index is ready the page types WARM_WORDS into the engine, one
  // keystroke at a time in idle moments, and shows nothing of it (about
  // 80 searches, 0.3-0.5 s of the engine's time): the functions a search
  // runs are optimized before the user's keystrokes need them. It pauses
  // while the user searches (until WARM_PAUSE_MS after the last search
  // asked) and runs once; ?warm=0 skips it. Its words are not the page's
  // examples, nor prefixes of the e2e test's keystrokes, so that the test
  // measures the compiled engine and not answers the warm-up left in its
  // caches.
  const WARM_WORDS = [
    ['func', 'auto'], ['string', 'substring'], ['value', 'text'], ['time.Now', 'auto'],
    ['open file', 'text'], ['strconv', 'substring'], ['package', 'auto'], ['sync.Once', 'auto'],
    ['unsafe', 'substring'], ['goroutine', 'text'], ['append', 'auto'], ['xml', 'auto'],
  ];
  const WARM_PAUSE_MS = 500;
  const noWarm = new URLSearchParams(location.search).get('warm') === '0';
  let lastSearch = -Infinity, warming = false;

  async function warmUp() {
    if (warming) return;
    warming = true;
    let searches = 0, ms = 0;
    const idle = () => new Promise((r) => (window.requestIdleCallback || setTimeout)(r));
    if (!noWarm) {
      for (const [word, mode] of WARM_WORDS) {
        for (let i = 1; i <= word.length; i++) {
          await idle();
          while (running || performance.now() - lastSearch < WARM_PAUSE_MS) {
            await new Promise((r) => setTimeout(r, WARM_PAUSE_MS));
          }
          const t0 = performance.now();
          try {
            await twindex.search(word.slice(0, i), { mode, limit: LIMIT });
          } catch (e) {
            console.warn('warm-up', e);
          }
          ms += performance.now() - t0;
          searches++;
        }
      }
    }
    app.timings.warmMs = ms;
    resolveWarmed({ searches, ms });
  }

  // ---- Kind filter -----------------------------------------------------

  async function refreshKinds() {
    const stats = await twindex.stats();
    const kinds = Object.keys(stats.kinds).filter((k) => k !== '').sort();
    const have = new Set([...kindsBox.querySelectorAll('input')].map((el) => el.value));
    for (const k of kinds) {
      if (have.has(k)) continue;
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = k;
      box.name = 'kind';
      box.checked = state.kinds.has(k);
      label.append(box, ' ' + k);
      kindsBox.append(label);
    }
    // Keep the chips in order as kinds arrive from dropped files.
    [...kindsBox.querySelectorAll('label')]
      .sort((a, b) => a.textContent.localeCompare(b.textContent))
      .forEach((l) => kindsBox.append(l));
    for (const l of kindsBox.querySelectorAll('label')) {
      const n = stats.kinds[l.querySelector('input').value] || 0;
      l.title = `${n} documents`;
    }
    kindsBox.hidden = kinds.length < 2;
  }

  // ---- Search ----------------------------------------------------------

  // At most one search runs; keystrokes during it collapse into one more
  // search for the latest input (a debounce that adds no delay).
  let running = false, again = false, generation = 0;

  function search() {
    if (input.disabled) return;
    lastSearch = performance.now();
    generation++;
    if (running) { again = true; return; }
    run();
  }

  async function run() {
    running = true;
    try {
      do {
        again = false;
        const gen = generation;
        const req = {
          query: state.query, mode: state.mode, kinds: [...state.kinds].sort(), explain: state.explain,
        };
        const t0 = performance.now();
        let res = null, err = null;
        if (req.query.trim() !== '') {
          try {
            res = await twindex.search(req.query, {
              mode: req.mode, kinds: req.kinds, explain: req.explain, limit: LIMIT,
            });
          } catch (e) {
            err = e;
          }
        }
        if (gen !== generation) continue; // stale: the input moved on
        render(req, res, err, performance.now() - t0);
      } while (again);
    } finally {
      running = false;
    }
  }

  function render(req, res, err, ms) {
    const r0 = performance.now();
    results.replaceChildren();
    empty.hidden = true;
    empty.replaceChildren();
    let total = 0;
    if (req.query.trim() === '') {
      summary.textContent = '';
      showHints();
    } else if (err) {
      summary.textContent = '';
      empty.hidden = false;
      if (err.code === 'empty_query') {
        empty.append(para('Nothing to search for in that: type a word or a piece of code.'));
      } else {
        empty.append(para(`Search failed: ${err.message}`));
        empty.classList.add('error');
      }
    } else {
      total = res.total;
      const kinds = req.kinds.length ? ` in ${req.kinds.join(', ')}` : '';
      summary.textContent = `${res.total} ${res.total === 1 ? 'hit' : 'hits'}${kinds} · ${ms.toFixed(1)} ms` +
        ` (engine ${res.tookMs.toFixed(1)} ms) · ${res.mode}`;
      summary.title = 'time from the keystroke\'s search call to its result; the engine\'s share in brackets';
      if (res.hits.length === 0) noResults(req, res);
      for (const hit of res.hits) results.append(hitItem(hit));
      if (res.truncated) results.append(moreItem(req, res.hits.length, res.total));
    }
    results.dataset.query = req.query;
    results.dataset.mode = req.mode;
    document.dispatchEvent(new CustomEvent('twindex:rendered', {
      detail: { ...req, total, ms, engineMs: res ? res.tookMs : 0, renderMs: performance.now() - r0 },
    }));
  }

  function para(text) {
    const p = document.createElement('p');
    p.textContent = text;
    return p;
  }

  // moreItem offers the next page of req's hits, of which the first n of
  // total are shown. Its hits are appended unless a search was asked for
  // since these were rendered (a click on the list while the next
  // keystroke's search runs included).
  function moreItem(req, n, total) {
    const shown = generation;
    const li = document.createElement('li');
    li.className = 'more';
    li.append(`showing the first ${n} of ${total} · `);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'link';
    b.textContent = `show ${Math.min(LIMIT, total - n)} more`;
    b.addEventListener('click', async () => {
      if (shown !== generation) return;
      b.disabled = true;
      let res;
      try {
        res = await twindex.search(req.query, {
          mode: req.mode, kinds: req.kinds, explain: req.explain, limit: LIMIT, offset: n,
        });
      } catch (e) {
        li.textContent = `Search failed: ${e.message}`;
        return;
      }
      if (shown !== generation || !li.isConnected) return;
      li.remove();
      for (const hit of res.hits) results.append(hitItem(hit));
      if (res.truncated) results.append(moreItem(req, n + res.hits.length, res.total));
    });
    li.append(b);
    return li;
  }

  function showHints() {
    empty.hidden = false;
    const p = para('Try: ');
    for (const q of ['NewReader', 'ReadAll', 'http.Handler', 'close the file', 'unmarshal json', 'ErrUnexpectedEOF']) {
      p.append(queryLink(q), ' ');
    }
    empty.append(p);
  }

  function queryLink(q, mode) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'link';
    b.textContent = q;
    b.addEventListener('click', () => {
      if (mode) setMode(mode);
      input.value = q;
      state.query = q;
      search();
      input.focus();
    });
    return b;
  }

  function noResults(req, res) {
    empty.hidden = false;
    empty.append(para(`No results for “${req.query}”${req.kinds.length ? ' in ' + req.kinds.join(', ') : ''}.`));
    // The engine suggests the nearest indexed words when nothing matched.
    const suggestion = res.didYouMean;
    if (typeof suggestion === 'string' && suggestion !== '') {
      const p = para('Did you mean ');
      p.append(queryLink(suggestion), '?');
      p.className = 'suggestion';
      empty.append(p);
    }
    // What the engine says of the search (a query of stop words alone in
    // text mode, say), as text.
    for (const w of res.warnings || []) empty.append(para(w.charAt(0).toUpperCase() + w.slice(1) + '.'));
    const tips = [];
    if (req.kinds.length) tips.push('clear the kind filter');
    if (req.mode === 'text') tips.push('try substring mode for a fragment of a word or code');
    if (req.mode === 'substring') tips.push('try text mode to match words in any form and order');
    if (tips.length) empty.append(para('You could ' + tips.join(', or ') + '.'));
  }

  function hitItem(hit) {
    const li = document.createElement('li');
    li.className = 'hit';
    li.dataset.id = hit.id;

    const head = document.createElement('div');
    head.className = 'hit-head';
    const title = document.createElement('span');
    title.className = 'title';
    title.textContent = hit.title || hit.id; // plain text: never markup
    head.append(title);
    if (hit.kind) head.append(badge(hit.kind, 'kind'));
    for (const leg of hit.matchedIn || []) head.append(badge(leg, 'leg leg-' + leg));
    li.append(head);

    const id = document.createElement('div');
    id.className = 'id';
    id.textContent = hit.id;
    li.append(id);

    const snip = document.createElement('pre');
    snip.className = 'snippet field-' + hit.field;
    snip.append(...snippetNodes(hit.snippet));
    li.append(snip);

    if (hit.explain) li.append(explainLine(hit));
    return li;
  }

  function badge(text, cls) {
    const b = document.createElement('span');
    b.className = 'badge ' + cls;
    b.textContent = text;
    return b;
  }

  // The engine escapes snippets and wraps matches in <mark>; those are
  // its only tags. Rather than trust innerHTML with that, build the nodes:
  // split on the two tags, decode entities in the text between them.
  function snippetNodes(snippet) {
    const out = [];
    let mark = null;
    for (const part of (snippet || '').split(/(<mark>|<\/mark>)/)) {
      if (part === '<mark>') { mark = document.createElement('mark'); out.push(mark); continue; }
      if (part === '</mark>') { mark = null; continue; }
      if (part === '') continue;
      const text = document.createTextNode(decodeEntities(part));
      if (mark) mark.append(text); else out.push(text);
    }
    return out;
  }

  const NAMED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: '\'', '#39': '\'', '#34': '"' };
  function decodeEntities(s) {
    return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e) => {
      if (e in NAMED) return NAMED[e];
      if (e[0] === '#') {
        const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        try { return String.fromCodePoint(n); } catch { return m; }
      }
      return m;
    });
  }

  function explainLine(hit) {
    const p = document.createElement('div');
    p.className = 'explain';
    const legs = hit.explain.legs.map((l) => `${l.leg} #${l.rank} (${l.score.toPrecision(4)})`);
    p.textContent = `${legs.join(' · ')} → score ${hit.score.toPrecision(4)}` +
      (hit.explain.k ? `, RRF k=${hit.explain.k}` : '');
    return p;
  }

  function setMode(mode) {
    state.mode = mode;
    for (const r of document.querySelectorAll('input[name=mode]')) r.checked = r.value === mode;
  }

  // ---- Your own files ----------------------------------------------------

  const dropStatus = $('dropStatus');
  let dropped = 0;

  async function addFiles(files) {
    const docs = [];
    const problems = [];
    for (const f of files) {
      try {
        docs.push(...await fileDocs(f));
      } catch (e) {
        problems.push(`${f.name}: ${e.message}`);
      }
    }
    if (docs.length) {
      try {
        await twindex.add(docs);
        dropped += docs.length;
        await refreshKinds();
      } catch (e) {
        problems.push(e.message);
      }
    }
    dropStatus.textContent = `Added ${docs.length} documents from ${files.length} file(s)` +
      (problems.length ? `; skipped: ${problems.join('; ')}` : '.');
    dropStatus.dataset.added = String(dropped);
    search();
  }

  async function fileDocs(file) {
    const text = await file.text();
    const name = file.name;
    if (/\.jsonl?$/i.test(name)) return jsonDocs(text, name);
    const kind = /\.(md|markdown)$/i.test(name) ? 'markdown' : 'text';
    const chunks = split(text);
    return chunks.map((body, i) => ({
      id: chunks.length === 1 ? `file:${name}` : `file:${name}#${i + 1}`,
      kind,
      title: chunks.length === 1 ? name : `${name} (part ${i + 1} of ${chunks.length})`,
      body,
    }));
  }

  // split cuts long text into parts of about CHUNK bytes at blank lines,
  // so a hit points somewhere near its match.
  function split(text) {
    if (text.length <= CHUNK * 2) return [text];
    const parts = [];
    let cur = '';
    for (const para of text.split(/\n\s*\n/)) {
      if (cur && cur.length + para.length > CHUNK) { parts.push(cur); cur = ''; }
      cur += (cur ? '\n\n' : '') + para;
    }
    if (cur) parts.push(cur);
    return parts;
  }

  // jsonDocs reads a JSON array or JSONL, in the CLI's format (it also
  // takes BEIR's _id and text).
  function jsonDocs(text, name) {
    let rows;
    const trimmed = text.trim();
    if (trimmed.startsWith('[')) {
      rows = JSON.parse(trimmed);
    } else {
      rows = [];
      trimmed.split('\n').forEach((line, i) => {
        if (line.trim() === '') return;
        try { rows.push(JSON.parse(line)); } catch (e) { throw new Error(`line ${i + 1}: ${e.message}`); }
      });
    }
    return rows.map((r, i) => {
      const doc = { ...r };
      if (doc.id === undefined && r._id !== undefined) doc.id = String(r._id);
      if (doc.body === undefined && r.text !== undefined) doc.body = r.text;
      delete doc._id;
      delete doc.text;
      if (doc.id === undefined || doc.id === '') doc.id = `${name}:${i + 1}`;
      doc.id = String(doc.id);
      return doc;
    });
  }

  // ---- Wiring ------------------------------------------------------------

  input.addEventListener('input', () => { state.query = input.value; search(); });
  for (const r of document.querySelectorAll('input[name=mode]')) {
    r.addEventListener('change', () => { if (r.checked) { state.mode = r.value; search(); } });
  }
  explainBox.addEventListener('change', () => { state.explain = explainBox.checked; search(); });
  kindsBox.addEventListener('change', (e) => {
    if (e.target.name !== 'kind') return;
    if (e.target.checked) state.kinds.add(e.target.value); else state.kinds.delete(e.target.value);
    search();
  });
  $('files').addEventListener('change', (e) => {
    if (e.target.files.length) addFiles([...e.target.files]);
    e.target.value = '';
  });

  const overlay = $('dropOverlay');
  let dragDepth = 0;
  window.addEventListener('dragenter', (e) => {
    if (![...(e.dataTransfer?.types || [])].includes('Files')) return;
    e.preventDefault();
    dragDepth++;
    overlay.hidden = false;
  });
  window.addEventListener('dragleave', () => { if (--dragDepth <= 0) { dragDepth = 0; overlay.hidden = true; } });
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    dragDepth = 0;
    overlay.hidden = true;
    const files = [...(e.dataTransfer?.files || [])];
    if (!files.length) return;
    if (input.disabled) { dropStatus.textContent = 'Wait a moment: the engine is still loading.'; return; }
    addFiles(files);
  });

  showHints();
  const snapshot = fetchSnapshot().catch((e) => {
    console.warn(`${SNAPSHOT}: ${e}; indexing the corpus in this tab instead`);
    return null;
  });
  loadEngine()
    .then(() => snapshot)
    .then((bytes) => (bytes ? loadSnapshot(bytes) : loadCorpus()))
    .catch((e) => fail('loading', e));
})();
