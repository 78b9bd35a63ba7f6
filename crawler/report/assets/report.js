"use strict";
// Crawl report: the page table (sort, filter, paging) and the lazily loaded per-page views.
// Every text from the database goes in through textContent; page content is shown in a
// sandboxed iframe (no scripts) after the generator sanitised it.
(function () {
  const INDEX = JSON.parse(document.getElementById("page-index").textContent);
  const COLS = INDEX.columns;
  const ROWS = INDEX.rows;
  const C = Object.fromEntries(COLS.map((name, i) => [name, i]));
  const PAGE_SIZE = 100;
  const state = { text: "", domain: "", type: "", flagged: "", key: "url", desc: false, page: 0 };
  const chunks = {};
  const waiting = {};
  let shown = ROWS.map((_, i) => i);

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v; else node.setAttribute(k, v);
    }
    for (const child of children || []) node.append(child);
    return node;
  }
  function fmtNum(v, digits) {
    if (v === null || v === undefined || v === "") return "";
    return digits === undefined ? String(v) : Number(v).toFixed(digits);
  }

  // ------------------------------------------------------------------ filters and table
  function fillSelect(id, column) {
    const select = document.getElementById(id);
    const values = Array.from(new Set(ROWS.map(r => r[C[column]] || ""))).sort();
    for (const v of values) select.append(el("option", { value: v, text: v || "(none)" }));
    select.addEventListener("change", () => { state[select.dataset.state] = select.value; apply(); });
  }
  function matches(row) {
    if (state.domain && (row[C.domain] || "") !== state.domain) return false;
    if (state.type && (row[C.page_type] || "") !== state.type) return false;
    if (state.flagged === "yes" && !row[C.quality_flagged]) return false;
    if (state.flagged === "no" && row[C.quality_flagged]) return false;
    if (state.text) {
      const hay = ((row[C.url] || "") + " " + (row[C.title] || "")).toLowerCase();
      if (!hay.includes(state.text)) return false;
    }
    return true;
  }
  function compare(a, b) {
    const i = C[state.key];
    let x = ROWS[a][i], y = ROWS[b][i];
    const nullX = x === null || x === undefined || x === "", nullY = y === null || y === undefined || y === "";
    if (nullX || nullY) return nullX === nullY ? a - b : (nullX ? 1 : -1);
    let r = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    if (r === 0) r = a - b;
    return state.desc ? -r : r;
  }
  function apply() {
    shown = [];
    for (let i = 0; i < ROWS.length; i++) if (matches(ROWS[i])) shown.push(i);
    shown.sort(compare);
    state.page = 0;
    draw();
  }
  function draw() {
    const body = document.querySelector("#pages-table tbody");
    body.replaceChildren();
    const start = state.page * PAGE_SIZE;
    for (const i of shown.slice(start, start + PAGE_SIZE)) {
      const r = ROWS[i];
      const tr = el("tr", { "data-index": String(i) }, [
        el("td", { class: "url", text: r[C.url] || "" }),
        el("td", { text: r[C.title] || "" }),
        el("td", { text: r[C.page_type] || "" }),
        el("td", { class: "num", text: fmtNum(r[C.word_count]) }),
        el("td", { class: "num", text: fmtNum(r[C.quality_score], 2) }),
        el("td", { class: r[C.quality_flagged] ? "flag" : "", text: r[C.quality_flagged] ? "flagged" : "" }),
        el("td", { text: r[C.method] || "" }),
      ]);
      tr.addEventListener("click", () => { location.hash = "page=" + i; });
      body.append(tr);
    }
    const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
    const count = document.getElementById("pages-count");
    count.textContent = shown.length + " of " + ROWS.length + " pages";
    count.dataset.shown = String(shown.length);
    document.getElementById("pager-pos").textContent = "page " + (state.page + 1) + " of " + pages;
    document.getElementById("pager-prev").disabled = state.page === 0;
    document.getElementById("pager-next").disabled = state.page >= pages - 1;
    document.querySelectorAll("#pages-table th[data-key]").forEach(th => {
      th.classList.toggle("sorted", th.dataset.key === state.key);
      th.classList.toggle("desc", th.dataset.key === state.key && state.desc);
    });
  }
  function setupTable() {
    fillSelect("filter-domain", "domain");
    fillSelect("filter-type", "page_type");
    const flagged = document.getElementById("filter-flagged");
    flagged.addEventListener("change", () => { state.flagged = flagged.value; apply(); });
    const text = document.getElementById("filter-text");
    text.addEventListener("input", () => { state.text = text.value.trim().toLowerCase(); apply(); });
    document.querySelectorAll("#pages-table th[data-key]").forEach(th => {
      th.addEventListener("click", () => {
        if (state.key === th.dataset.key) state.desc = !state.desc;
        else { state.key = th.dataset.key; state.desc = th.classList.contains("num"); }
        shown.sort(compare); state.page = 0; draw();
      });
    });
    document.getElementById("pager-prev").addEventListener("click", () => { state.page--; draw(); });
    document.getElementById("pager-next").addEventListener("click", () => { state.page++; draw(); });
    apply();
  }

  // ------------------------------------------------------------------ page views
  window.reportPages = function (chunk, views) {
    chunks[chunk] = views;
    for (const resolve of waiting[chunk] || []) resolve(views);
    delete waiting[chunk];
  };
  function loadChunk(chunk) {
    if (chunks[chunk]) return Promise.resolve(chunks[chunk]);
    return new Promise((resolve, reject) => {
      (waiting[chunk] = waiting[chunk] || []).push(resolve);
      const script = document.createElement("script");
      script.src = INDEX.files + "/pages-" + String(chunk).padStart(5, "0") + ".js";
      script.onerror = () => reject(new Error("cannot load " + script.src +
        " (the page views are kept in the folder beside the report)"));
      document.head.append(script);
    });
  }
  function kvTable(obj) {
    const table = el("table", { class: "kv" });
    for (const [k, v] of Object.entries(obj)) {
      table.append(el("tr", {}, [el("th", { text: k }), el("td", {}, [renderValue(v)])]));
    }
    return table;
  }
  function isPlainObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function renderValue(v) {
    if (v === null || v === undefined) return document.createTextNode("—");
    if (Array.isArray(v)) {
      if (v.length && v.every(isPlainObject)) {
        const keys = Array.from(new Set(v.flatMap(Object.keys)));
        const table = el("table", {}, [el("tr", {}, keys.map(k => el("th", { text: k })))]);
        for (const item of v) table.append(el("tr", {}, keys.map(k => el("td", {}, [renderValue(item[k])]))));
        return table;
      }
      if (v.every(x => !(x && typeof x === "object"))) return document.createTextNode(v.join(", "));
      return el("ul", {}, v.map(x => el("li", {}, [renderValue(x)])));
    }
    if (isPlainObject(v)) return kvTable(v);
    return document.createTextNode(String(v));
  }
  function renderTrace(trace) {
    const box = el("div", { class: "trace" });
    trace.forEach((entry, n) => {
      const rest = Object.assign({}, entry);
      const step = rest.step || "step";
      delete rest.step;
      const brief = Object.entries(rest).filter(([, v]) => v === null || typeof v !== "object")
        .slice(0, 3).map(([k, v]) => k + "=" + String(v).slice(0, 80)).join("  ");
      box.append(el("details", { class: "trace-entry" }, [
        el("summary", { text: (n + 1) + ". " + step + (brief ? "  " + brief : "") }), kvTable(rest)]));
    });
    return box;
  }
  function srcdoc(html) {
    return "<!doctype html><meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" " +
      "content=\"default-src 'none'; style-src 'unsafe-inline'\"><style>body{font:15px/1.55 " +
      "system-ui,sans-serif;margin:12px 16px;color:#1d2330}img{max-width:100%}pre{overflow:auto;" +
      "background:#f6f7f9;padding:8px}table{border-collapse:collapse}td,th{border:1px solid #ddd;" +
      "padding:3px 6px}</style>" + html;
  }
  function showPage(i) {
    const row = ROWS[i];
    const view = document.getElementById("page-view");
    const body = document.getElementById("page-body");
    document.getElementById("overview").hidden = true;
    view.hidden = false;
    document.getElementById("page-title").textContent = (row && (row[C.title] || row[C.url])) || "";
    body.replaceChildren(el("p", { class: "muted", text: "loading…" }));
    window.scrollTo(0, 0);
    if (!row) { body.replaceChildren(el("p", { class: "error", text: "no page " + i })); return; }
    loadChunk(Math.floor(i / INDEX.chunk_size)).then(views => {
      const page = views[i % INDEX.chunk_size];
      const parts = [];
      parts.push(el("p", { class: "url", text: page.meta.url || "" }));
      parts.push(el("h3", { text: "Quality" }));
      parts.push(el("p", { "data-field": "quality", text: "score " + fmtNum(page.meta.quality_score, 3) +
        (page.meta.quality_flagged ? " (flagged)" : "") }));
      parts.push(el("ul", { class: "reasons" }, (page.reasons.length ? page.reasons : ["no reasons stored"])
        .map(r => el("li", { text: r }))));
      const frame = el("iframe", { sandbox: "", title: "extracted content", id: "page-content" });
      frame.srcdoc = srcdoc(page.html);
      parts.push(el("details", { open: "" }, [el("summary", { text: "Content (sanitised HTML)" }), frame]));
      parts.push(el("details", {}, [el("summary", { text: "Markdown" }),
        el("pre", { class: "md", id: "page-markdown", text: page.markdown })]));
      if (page.cleaned !== null && page.cleaned !== undefined && page.cleaned !== page.markdown) {
        parts.push(el("details", {}, [el("summary", { text: "Markdown without domain boilerplate" }),
          el("pre", { class: "md", text: page.cleaned })]));
      }
      parts.push(el("details", { open: "" }, [el("summary", { text: "Metadata" }), kvTable(page.meta)]));
      const trace = el("details", { id: "page-trace" }, [el("summary", { text: "Extraction trace" })]);
      if (page.trace) {
        trace.append(el("p", { class: "muted", text: "Extracted again from the stored HTML by the " +
          "current engine (method " + (page.trace_method || "—") + ", quality " +
          fmtNum(page.trace_quality, 3) + ")." }), renderTrace(page.trace));
      } else {
        trace.append(el("p", { class: "muted", text: page.trace_note ||
          "no trace in this report (generated without traces for this page)" }));
      }
      parts.push(trace);
      body.replaceChildren(...parts);
    }).catch(err => body.replaceChildren(el("p", { class: "error", text: String(err.message || err) })));
  }
  function route() {
    const m = /^#page=(\d+)$/.exec(location.hash);
    if (m) { showPage(Number(m[1])); return; }
    document.getElementById("page-view").hidden = true;
    document.getElementById("overview").hidden = false;
    if (location.hash.length > 1) {
      const target = document.getElementById(location.hash.slice(1));
      if (target) target.scrollIntoView();
    }
  }
  setupTable();
  window.addEventListener("hashchange", route);
  route();
})();
