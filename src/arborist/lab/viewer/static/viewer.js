// arborist run viewer: renders the JSON in #arborist-data. Every string from a run goes on the page
// through text nodes (h() below never parses markup), so document and answer text stay inert.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("arborist-data").textContent);
  const PAGE_SIZE = 100;
  const app = document.getElementById("app");

  // ---- DOM helpers: children that are strings become text nodes, never markup ----
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "onclick") el.addEventListener("click", v);
      else if (k === "onchange") el.addEventListener("change", v);
      else if (k === "oninput") el.addEventListener("input", v);
      else el.setAttribute(k, String(v));
    }
    append(el, children);
    return el;
  }
  function append(el, ...children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }
  function table(headers, rows, attrs) {
    return h("table", attrs || {}, h("thead", {}, h("tr", {}, headers.map((x) => h("th", {}, x)))),
      h("tbody", {}, rows));
  }
  function kv(pairs) {
    return h("dl", { class: "kv" }, pairs.filter((p) => p[1] !== undefined).map(([k, v]) => [h("dt", {}, k), h("dd", {}, v === null ? "—" : v)]));
  }
  function pct(n, d) { return d ? Math.round((100 * n) / d) + "%" : "—"; }
  function fmt(x, digits) {
    if (x === null || x === undefined) return "—";
    return typeof x === "number" ? x.toFixed(digits === undefined ? 3 : digits) : String(x);
  }
  function hashParams() {
    const p = new URLSearchParams(location.hash.replace(/^#/, ""));
    return Object.fromEntries(p.entries());
  }
  function setHash(params) {
    const clean = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ""));
    location.hash = new URLSearchParams(clean).toString();
  }
  function badge(text, cls) { return h("span", { class: "badge " + (cls || "") }, text); }
  function boundaryBadge(row) {
    const b = row.diagnosis.boundary || "not measured";
    return badge(b, "b-" + b.replace(" ", "_"));
  }
  function labelBadge(label, verifier) {
    // a STRICT that rests on the entailment judge says so wherever the label is shown
    const judged = verifier && verifier.n_judged ? " (" + verifier.n_judged + " judged)" : "";
    return badge((label || "no label") + judged, "l-" + (label || "none"));
  }
  function pre(text, cls) { return h("pre", { class: cls || "" }, text); }
  function pretty(obj) { return JSON.stringify(obj, null, 2); }

  // ---- quote location: exact first, then the same words ignoring case, spacing and punctuation ----
  function words(text) {
    return [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({ w: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
  }
  function locate(haystack, needle) {
    if (!needle || !haystack) return null;
    const at = haystack.indexOf(needle);
    if (at >= 0) return { start: at, end: at + needle.length, how: "exact" };
    const H = words(haystack), N = words(needle).map((x) => x.w);
    if (!N.length) return null;
    outer: for (let i = 0; i + N.length <= H.length; i++) {
      for (let j = 0; j < N.length; j++) if (H[i + j].w !== N[j]) continue outer;
      return { start: H[i].start, end: H[i + N.length - 1].end, how: "same words, ignoring case and punctuation" };
    }
    return null;
  }
  function highlighted(text, spans) {
    // spans: [{start, end, cls, title}] — non-overlapping after sorting; overlaps are clipped.
    const sorted = spans.slice().sort((x, y) => x.start - y.start);
    const out = [];
    let pos = 0;
    for (const s of sorted) {
      const start = Math.max(s.start, pos);
      if (start >= s.end) continue;
      out.push(text.slice(pos, start));
      out.push(h("mark", { class: s.cls, title: s.title }, text.slice(start, s.end)));
      pos = s.end;
    }
    out.push(text.slice(pos));
    return out;
  }

  // The full row behind a list row: its own JSON element, parsed when its question page opens.
  const detailCache = new Map();
  function detail(run, i) {
    const id = run.row_prefix + i;
    if (!detailCache.has(id)) detailCache.set(id, JSON.parse(document.getElementById(id).textContent));
    return detailCache.get(id);
  }

  // ---- the funnel of one row ----
  function evidenceMap(row) {
    // E-ids as the prompt showed them; rows from before the trace assume admitted order (layouts.py).
    const trace = row.trace;
    if (trace && trace.evidence && trace.evidence.length) {
      return { byId: Object.fromEntries(trace.evidence.map((e) => [e.evidence_id, e.chunk_id])), recorded: true };
    }
    return { byId: Object.fromEntries(row.context.admitted_chunk_ids.map((c, i) => ["E" + (i + 1), c])), recorded: false };
  }
  function citedChunks(row, emap) {
    if (row.trace && row.trace.citation_chunk_ids) return new Set(row.trace.citation_chunk_ids);
    const cited = new Set();
    const parsed = row.answer.parsed || {};
    for (const item of [...(parsed.claims || []), ...(parsed.quotes || [])]) {
      for (const e of item.evidence_ids || (item.evidence_id ? [item.evidence_id] : [])) {
        if (emap.byId[e]) cited.add(emap.byId[e]);
      }
    }
    return cited;
  }
  function quoteFindings(row, run, emap) {
    // For each claim (or quote) with quote text: where it sits in its cited block, or in which block it really is.
    const parsed = row.answer.parsed || {};
    const items = (parsed.claims || []).map((c, i) => ({ i, quote: c.quote, cited: c.evidence_ids || [] }))
      .concat((parsed.quotes || []).map((q, i) => ({ i, quote: q.text, cited: q.evidence_ids || (q.evidence_id ? [q.evidence_id] : []) })));
    const findings = [];
    for (const it of items) {
      if (!it.quote) continue;
      let found = null;
      for (const e of it.cited) {
        const cid = emap.byId[e];
        const text = cid && run.chunks[cid] && run.chunks[cid].text;
        const loc = text && locate(text, it.quote);
        if (loc) { found = { ...loc, chunk: cid, evidence: e, miscited: false }; break; }
      }
      if (!found) {
        for (const [e, cid] of Object.entries(emap.byId)) {
          const text = run.chunks[cid] && run.chunks[cid].text;
          const loc = text && locate(text, it.quote);
          if (loc) { found = { ...loc, chunk: cid, evidence: e, miscited: true }; break; }
        }
      }
      findings.push({ index: it.i, cited: it.cited, found });
    }
    return findings;
  }

  function funnelSummary(row, run, neededSources, cited) {
    const ranked = row.retrieval.ranked_chunk_ids, sel = row.selected_chunk_ids, adm = row.context.admitted_chunk_ids;
    const src = (c) => (run.chunks[c] && run.chunks[c].source_id) || c.split("#chunk-")[0];
    const needed = (ids) => new Set(ids.map(src).filter((s) => neededSources.has(s))).size;
    const stages = [
      ["ranked", ranked.length, needed(ranked)],
      ["selected (EvidenceK " + row.retrieval.evidence_k + ")", sel.length, needed(sel)],
      ["admitted (" + row.context.used_runes + " / " + row.context.max_runes + " runes)", adm.length, needed(adm)],
      ["cited", cited.size, needed([...cited])],
    ];
    return h("div", { class: "funnel", id: "funnel" }, stages.map(([name, n, k]) =>
      h("div", { class: "stage" }, h("div", { class: "stage-n" }, String(n)), h("div", {}, name),
        h("div", { class: "stage-k" }, neededSources.size ? k + " of " + neededSources.size + " needed sources" : ""))));
  }

  function funnelTable(row, run, neededSources, emap, cited) {
    const ranked = row.retrieval.ranked_chunk_ids;
    const selected = new Set(row.selected_chunk_ids);
    const admitted = new Set(row.context.admitted_chunk_ids);
    const omissions = {};
    for (const o of (row.trace && row.trace.omissions) || []) omissions[o.chunk_id] = o.reason;
    for (const c of row.context.omitted_chunk_ids) if (!(c in omissions)) omissions[c] = "reason not recorded by this run";
    const eOf = Object.fromEntries(Object.entries(emap.byId).map(([e, c]) => [c, e]));
    const ORDER = ["bm25", "title", "keywords", "phrase", "dense", "bridge"];
    const rank = (r) => (ORDER.includes(r) ? ORDER.indexOf(r) : ORDER.length);
    const routes = [...new Set(Object.values(row.retrieval.route_ranks).flatMap((r) => Object.keys(r)))]
      .sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
    const ids = ranked.concat(row.context.admitted_chunk_ids.filter((c) => !ranked.includes(c)));
    const body = ids.map((c, i) => {
      const ch = run.chunks[c] || {};
      const source = ch.source_id || c.split("#chunk-")[0];
      const need = neededSources.has(source);
      const rr = row.retrieval.route_ranks[c] || {};
      let stage = "ranked";
      if (selected.has(c)) stage = "selected";
      if (c in omissions) stage = "omitted";
      if (admitted.has(c)) stage = "admitted";
      if (cited.has(c)) stage = "cited";
      return h("tr", { class: "st-" + stage + (need ? " needed" : ""), "data-chunk": c, "data-stage": stage },
        h("td", {}, ranked.includes(c) ? String(i + 1) : "—"),
        h("td", { class: "mono" }, c),
        h("td", {}, ch.title || ""),
        h("td", {}, need ? badge("needed", "needed-b") : "", " ", source),
        routes.map((r) => h("td", { class: "num" }, rr[r] === undefined ? "" : String(rr[r]))),
        h("td", {}, selected.has(c) ? "✓" : ""),
        h("td", {}, admitted.has(c) ? "✓ " + (eOf[c] || "") : (c in omissions ? "omitted: " + omissions[c] : "")),
        h("td", {}, cited.has(c) ? "✓" : ""));
    });
    const missing = [...neededSources].filter((s) => !ids.some((c) => ((run.chunks[c] || {}).source_id || c.split("#chunk-")[0]) === s));
    return [
      table(["rank", "chunk", "title", "source", ...routes.map((r) => r + " rank"), "selected", "admitted", "cited"], body, { id: "funnel-table", class: "funnel-table" }),
      missing.length ? h("p", { class: "warn" }, "Needed sources with no ranked chunk: " + missing.join(", ")) : null,
      unavailable(row),
    ];
  }
  function unavailable(row) {
    const u = row.retrieval.unavailable_routes || {};
    const keys = Object.keys(u);
    return keys.length ? h("p", { class: "muted" }, "Routes unavailable: " + keys.map((k) => k + " (" + u[k] + ")").join("; ")) : null;
  }

  function evidenceBlocks(row, run, emap, findings) {
    const blocks = [];
    for (const [e, cid] of Object.entries(emap.byId)) {
      const ch = run.chunks[cid] || {};
      const text = ch.text || "";
      const spans = findings.filter((f) => f.found && f.found.chunk === cid).map((f) => ({
        start: f.found.start, end: f.found.end, cls: f.found.miscited ? "q-miscited" : "q-ok",
        title: "claim " + (f.index + 1) + (f.found.miscited ? ": miscited (cited " + f.cited.join(", ") + ")" : ": quote in its cited block"),
      }));
      blocks.push(h("div", { class: "evidence", "data-evidence": e },
        h("div", { class: "ev-head" }, h("b", {}, e), " ", h("span", { class: "mono" }, cid), " · ", ch.title || ""),
        h("div", { class: "ev-text" }, text ? highlighted(text, spans) : h("i", {}, "chunk text not in this run's preparation/chunks.json"))));
    }
    return blocks;
  }

  function claimsTable(row, findings) {
    const trace = row.trace;
    const parsed = row.answer.parsed || {};
    const items = parsed.claims || parsed.quotes || [];
    const verdicts = (trace && trace.claims) || [];
    const body = items.map((it, i) => {
      const v = verdicts.find((x) => x.index === i) || verdicts[i];
      const f = findings.find((x) => x.index === i);
      let where = "no quote";
      if (f) {
        if (!f.found) where = "quote not found in any admitted block";
        else if (f.found.miscited) where = "MISCITED: cited " + f.cited.join(", ") + ", the quote is in " + f.found.evidence + " (" + f.found.how + ")";
        else where = "in cited " + f.found.evidence + " (" + f.found.how + ")";
      }
      const checks = v && v.checks ? Object.entries(v.checks).filter(([, c]) => c).map(([k, c]) =>
        k + ": " + (c.passed === null ? "n/a" : c.passed ? "pass" : "fail") + (c.detail ? " (" + c.detail + ")" : "")).join("; ") : "";
      return h("tr", { class: "claim" },
        h("td", {}, String(i + 1)),
        h("td", {}, it.text || ""),
        h("td", {}, (it.evidence_ids || (it.evidence_id ? [it.evidence_id] : [])).join(", ")),
        h("td", {}, v ? [badge(v.verdict, "v-" + v.verdict), v.basis ? " " + v.basis + (v.basis === "judged" && v.entailment !== null && v.entailment !== undefined ? " " + fmt(v.entailment, 2) : "") : ""] : h("i", {}, "not recorded")),
        h("td", {}, v ? (v.reasons || []).join(", ") : ""),
        h("td", { class: f && f.found && f.found.miscited ? "warn" : "" }, where),
        h("td", { class: "small" }, checks));
    });
    return table(["#", "claim", "cites", "verdict", "reasons", "quote", "checks"], body, { id: "claims" });
  }

  // What the answer repairs did: the model's quote beside the span it was snapped to, and the first answer
  // beside the revised one.
  function repairsView(trace) {
    const repairs = (trace && trace.repairs) || [];
    const attempts = (trace && trace.attempts) || [];
    if (!repairs.length && !attempts.length) return null;
    const rows = repairs.map((r) => h("tr", { class: "repair" },
      h("td", {}, r.kind), h("td", {}, r.claim === null || r.claim === undefined ? "" : String(r.claim + 1)),
      h("td", {}, r.quote_before || ""), h("td", {}, r.quote_after || ""),
      h("td", {}, (r.evidence_before || []).join(", ") + (r.evidence_after && r.evidence_after.length ? " → " + r.evidence_after.join(", ") : "")),
      h("td", { class: "num" }, r.distance === null || r.distance === undefined ? "" : String(r.distance)),
      h("td", { class: "small" }, r.detail || "")));
    return h("section", { id: "repairs" },
      h("h3", {}, "Repairs"),
      rows.length ? table(["kind", "claim", "the model's quote", "now", "cites", "edits", "detail"], rows, { id: "repairs-table" }) : null,
      attempts.length ? table(["attempt", "label", "kept", "answer"], attempts.map((a) => h("tr", {},
        h("td", {}, a.kind), h("td", {}, labelBadge(a.label)), h("td", {}, a.kept ? "kept" : "not kept"),
        h("td", {}, pre(a.answer ? pretty(a.answer) : "(" + a.contract + ")", "attempt-answer")))), { id: "attempts" }) : null);
  }

  function questionView(row, run, opts) {
    const q = run.questions[row.query_id] || {};
    const neededSources = new Set(q.relevant_source_ids || []);
    const emap = evidenceMap(row);
    const cited = citedChunks(row, emap);
    const findings = quoteFindings(row, run, emap);
    const trace = row.trace;
    const d = row.diagnosis;
    const t = Object.entries(row.timings || {}).map(([k, v]) => h("tr", {}, h("td", {}, "answer path: " + k), h("td", { class: "num" }, fmt(v, 3) + " s")))
      .concat(Object.entries(row.provider_timings || {}).map(([k, v]) => h("tr", {}, h("td", {}, "provider: " + k), h("td", { class: "num" }, fmt(v, 3) + " s"))));
    const guard = trace && trace.guard;
    return h("section", { class: "question", id: "question", "data-query": row.query_id },
      opts && opts.heading ? h("h3", {}, opts.heading) : null,
      h("h2", { id: "question-text" }, row.question),
      kv([["query", row.query_id], ["arm / sample", row.arm + " / " + row.sample],
        ["gold answers", row.gold_answers.join(" | ") || "—"],
        ["source", row.source + (row.reused_from ? " (reused from " + row.reused_from + ")" : "")],
        ["model", row.model_id], ["policy", row.governance_policy_hash]]),
      h("h3", {}, "Diagnosis"),
      h("p", { id: "diagnosis" }, boundaryBadge(row), " ",
        d.missing_source_ids && d.missing_source_ids.length ? "missing: " + d.missing_source_ids.join(", ") + " · " : "",
        "gold in answer: " + (d.gold_in_answer === null || d.gold_in_answer === undefined ? "n/a" : d.gold_in_answer ? "yes" : "no"),
        d.unmeasured ? " · not measured: " + d.unmeasured : ""),
      (d.requests || []).length ? table(["request", "text", "boundary", "missing", "gold in answer"], d.requests.map((r) => {
        const req = (q.requests || []).find((x) => x.id === r.id) || {};
        return h("tr", {}, h("td", { class: "mono" }, r.id), h("td", {}, req.text || ""), h("td", {}, badge(r.boundary || "not measured", "b-" + (r.boundary || "not_measured"))),
          h("td", {}, (r.missing_source_ids || []).join(", ")), h("td", {}, r.gold_in_answer === null ? "n/a" : r.gold_in_answer ? "yes" : "no"));
      })) : null,
      row.completeness && (row.completeness.requests || []).length ? [h("h3", {}, "Request completeness"),
        table(["request", "answered", "supported", "evidence admitted", "case"], row.completeness.requests.map((r) =>
          h("tr", {}, h("td", { class: "mono" }, r.id), h("td", {}, r.answered === null ? "n/a" : r.answered ? "yes" : "no"),
            h("td", {}, r.supported === null ? "n/a" : r.supported ? "yes" : "no"), h("td", {}, r.evidence_admitted ? "yes" : "no"),
            h("td", {}, r.case || ("not measured: " + (r.unmeasured || ""))))), { id: "completeness" })] : null,
      row.treatment ? [h("h3", {}, "Treatment: " + row.treatment.name),
        kv([["applied", row.treatment.applied ? "yes" : "no"], ["what was done", row.treatment.detail],
          ["outcome", row.treatment.outcome || "not measured"],
          ["admitted order", (row.treatment.admitted_order || []).join(", ")]].concat(
          row.treatment.withheld_chunk_ids && row.treatment.withheld_chunk_ids.length ? [["withheld", row.treatment.withheld_chunk_ids.join(", ")]] : [],
          row.treatment.planted_value ? [["planted", row.treatment.true_value + " → " + row.treatment.planted_value]] : []))] : null,
      h("h3", {}, "Funnel: ranked → selected → admitted → cited"),
      funnelSummary(row, run, neededSources, cited),
      funnelTable(row, run, neededSources, emap, cited),
      emap.recorded ? null : h("p", { class: "muted" }, "This run's rows predate the recorded evidence map: E1… are shown in admitted order, as the prompt layouts number them."),
      h("h3", {}, "Evidence as admitted (quotes highlighted)"),
      evidenceBlocks(row, run, emap, findings),
      h("details", { id: "prompt" }, h("summary", {}, "Prompt exactly as sent" + (trace ? " (" + trace.prompt_layout + " layout, " + row.prompt_sha256 + ")" : "")),
        trace ? trace.prompt_messages.map((m) => [h("div", { class: "role" }, m.role), pre(m.content, "prompt-text")])
          : h("p", { class: "muted" }, "Not recorded by this run (rows written before the viewer keep only its digest " + row.prompt_sha256 + ").")),
      h("h3", {}, "Answer"),
      h("h4", {}, "raw"), pre(row.answer.raw, "raw-answer"),
      h("h4", {}, "parsed"), pre(row.answer.parsed ? pretty(row.answer.parsed) : "(did not parse)", "parsed-answer"),
      h("h3", {}, "Contract"),
      kv([["valid", row.contract.valid ? "yes" : "no"], ["reason", row.contract.reason], ["detail", row.contract.detail || "—"], ["abstention", row.contract.abstention]]),
      h("h3", {}, "Verifier"),
      h("p", {}, labelBadge(row.verifier.label, row.verifier), " ", row.verifier.audit_mode || "", " ", (row.verifier.reasons || []).join(", ")),
      trace && trace.verifier_notes && trace.verifier_notes.length ? h("ul", {}, trace.verifier_notes.map((n) => h("li", {}, n))) : null,
      claimsTable(row, findings),
      repairsView(trace),
      trace ? null : h("p", { class: "muted" }, "Per-claim verdicts are not recorded in this run's rows (written since the viewer); quote positions are located by the viewer."),
      h("h3", {}, "Guards"),
      h("p", { id: "guards" }, row.verifier.guard_warning ? badge("missed-answer warning", "warn-b") : "no missed-answer warning",
        guard && guard.detail ? " · " + guard.detail : ""),
      guard && guard.missed_answer_candidate_spans && guard.missed_answer_candidate_spans.length ?
        h("ul", {}, guard.missed_answer_candidate_spans.map((s) => h("li", {}, s.join(" · ")))) : null,
      guard && guard.denials && guard.denials.length ? h("p", {}, "denials: " + guard.denials.join("; ")) : null,
      trace && trace.instruction_guard && (trace.instruction_guard.flags || []).length ?
        h("pre", {}, pretty(trace.instruction_guard)) : null,
      h("h3", {}, "Timings and tokens"),
      table(["phase", "time"], t),
      kv([["prompt tokens", row.tokens.prompt], ["completion tokens", row.tokens.completion], ["cached prompt tokens", row.tokens.cached_prompt]]));
  }

  // ---- run page ----
  function runHeader(run) {
    const st = run.status || {};
    const cfg = run.config;
    const rows = run.rows;
    const calls = rows.filter((r) => r.source === "provider").length;
    const hits = rows.filter((r) => r.source === "cache").length;
    const reused = rows.filter((r) => r.source === "reused").length;
    const seconds = rows.reduce((s, r) => s + ((r.timings || {}).total || 0), 0);
    return h("header", { id: "run-header" },
      h("h1", {}, "Run " + run.name),
      kv([["status", (st.state || "unknown") + (st.message ? " — " + st.message : "")],
        ["model", cfg.model_id], ["config digest", cfg.output_digest], ["arborist version", cfg.arborist_version],
        ["git", cfg.git ? (cfg.git.commit || "?") + (cfg.git.dirty ? " (dirty)" : "") : "—"],
        ["arms × samples", (cfg.arms || []).join(", ") + " × " + cfg.samples],
        ["rows", rows.length + " of " + cfg.rows_total + (run.unreadable_lines.length ? " (unreadable lines: " + run.unreadable_lines.join(", ") + ")" : "") +
          (run.foreign_rows ? " (" + run.foreign_rows + " objects that are not rows, skipped)" : "")],
        ["cache hits vs provider calls", hits + " cache hits · " + calls + " provider calls · " + reused + " reused from " + (cfg.continue_from || "the run continued")],
        ["time", (st.started_at || cfg.created_at) + " → " + (st.ended_at || "not ended") + " · " + seconds.toFixed(0) + " s on the answer path"]]));
  }
  function diagnosisTable(run, active) {
    const arms = Object.keys(run.diagnosis);
    const names = run.boundaries.map((b) => b.name).concat(["not measured"]);
    const meaning = Object.fromEntries(run.boundaries.map((b) => [b.name, b.meaning]));
    meaning["not measured"] = "no relevant ids or no gold answers";
    const total = (arm) => names.reduce((s, b) => s + run.diagnosis[arm][b], 0);
    const body = names.map((b) => h("tr", {
      class: "diag-row" + (active === b ? " active" : ""), "data-boundary": b, tabindex: "0",
      onclick: () => setHash(active === b ? {} : { b }),
    }, h("td", {}, badge(b, "b-" + b.replace(" ", "_"))), h("td", {}, meaning[b]),
    arms.map((a) => h("td", { class: "num" }, run.diagnosis[a][b] + " (" + pct(run.diagnosis[a][b], total(a)) + ")"))));
    return [h("h2", {}, "Where support for the gold answer disappeared"),
      h("p", { class: "muted" }, "Click a boundary to list its questions; click it again to clear."),
      table(["boundary", "meaning", ...arms], body, { id: "diagnosis-table" })];
  }
  function filterRows(rows, p) {
    const text = (p.text || "").toLowerCase();
    return rows.map((r, i) => [r, i]).filter(([r]) =>
      (!p.b || (r.diagnosis.boundary || "not measured") === p.b) &&
      (!p.label || (r.verifier.label || "none") === p.label) &&
      (!p.arm || r.arm === p.arm) &&
      (!text || r.question.toLowerCase().includes(text) || r.query_id.toLowerCase().includes(text)));
  }
  function pager(total, page, go) {
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    return h("div", { class: "pager" },
      h("button", { onclick: () => go(page - 1), disabled: page <= 1 ? "disabled" : null, id: "prev" }, "‹ prev"),
      " page " + page + " of " + pages + " (" + total + " rows) ",
      h("button", { onclick: () => go(page + 1), disabled: page >= pages ? "disabled" : null, id: "next" }, "next ›"));
  }
  function questionList(run, p) {
    const hits = filterRows(run.rows, p);
    const page = Math.max(1, parseInt(p.page || "1", 10) || 1);
    const slice = hits.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const labels = [...new Set(run.rows.map((r) => r.verifier.label || "none"))];
    const go = (n) => setHash({ ...p, page: String(n) });
    const search = h("input", { type: "search", placeholder: "filter by text or id", value: p.text || "", id: "filter-text" });
    search.addEventListener("change", () => setHash({ ...p, text: search.value, page: "1" }));
    return h("section", { id: "questions-section" },
      h("h2", {}, "Questions" + (p.b ? " lost at " + p.b : "")),
      h("div", { class: "filters" },
        p.b ? h("button", { onclick: () => setHash({ ...p, b: "", page: "1" }), id: "clear-filter" }, "× boundary " + p.b) : null,
        h("select", { id: "filter-label", onchange: (e) => setHash({ ...p, label: e.target.value, page: "1" }) },
          h("option", { value: "" }, "any label"), labels.map((l) => h("option", { value: l, selected: p.label === l ? "selected" : null }, l))),
        search),
      pager(hits.length, page, go),
      table(["#", "query", "arm", "s", "boundary", "label", "gold", "source", "question"], slice.map(([r, i]) =>
        h("tr", { class: "q-row", "data-boundary": r.diagnosis.boundary || "not measured", "data-query": r.query_id,
          onclick: () => setHash({ row: String(i) }) },
        h("td", { class: "num" }, String(i + 1)), h("td", { class: "mono" }, r.query_id), h("td", {}, r.arm), h("td", {}, String(r.sample)),
        h("td", {}, boundaryBadge(r)), h("td", {}, labelBadge(r.verifier.label, r.verifier)),
        h("td", {}, r.diagnosis.gold_in_answer === true ? "yes" : r.diagnosis.gold_in_answer === false ? "no" : "n/a"),
        h("td", {}, r.source), h("td", { class: "qtext" }, r.question))), { id: "questions" }));
  }
  function summaryTables(run) {
    const out = [h("h2", {}, "Metrics (summary.md)")];
    if (run.summary_missing) out.push(h("p", { class: "muted" }, run.summary_missing));
    for (const t of run.summary_tables) {
      out.push(h("h3", {}, t.title));
      out.push(table(t.headers, t.rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c.replace(/`/g, "")))))));
    }
    return out;
  }
  function renderRun() {
    const run = DATA.run;
    const p = hashParams();
    app.replaceChildren();
    const nav = h("nav", {}, DATA.links && DATA.links.index ? h("a", { href: DATA.links.index }, "all runs") : null);
    if (p.row !== undefined && run.rows[+p.row]) {
      const row = detail(run, +p.row);
      append(app, [nav, h("p", {}, h("a", { href: "#", id: "back" }, "← run " + run.name)), questionView(row, run)]);
      window.scrollTo(0, 0);
      return;
    }
    append(app, [nav, runHeader(run), diagnosisTable(run, p.b), questionList(run, p), summaryTables(run)]);
  }

  // ---- compare page ----
  function outcome(r) {
    return r ? [(r.diagnosis.boundary || "not measured"), r.verifier.label || "none", r.diagnosis.gold_in_answer].join("|") : "missing";
  }
  function renderCompare() {
    const { a, b, comparison } = DATA;
    const armA = comparison ? comparison.a.arm : (a.config.arms || [])[0];
    const armB = comparison ? comparison.b.arm : (b.config.arms || [])[0];
    const key = (r) => r.query_id + " · sample " + r.sample;
    const mapA = new Map(a.rows.map((r, i) => [r, i]).filter(([r]) => r.arm === armA).map(([r, i]) => [key(r), { ...r, i }]));
    const mapB = new Map(b.rows.map((r, i) => [r, i]).filter(([r]) => r.arm === armB).map(([r, i]) => [key(r), { ...r, i }]));
    const keys = [...new Set([...mapA.keys(), ...mapB.keys()])];
    const pairs = keys.map((k) => ({ k, ra: mapA.get(k), rb: mapB.get(k) }))
      .map((x) => ({ ...x, changed: outcome(x.ra) !== outcome(x.rb) }));
    pairs.sort((x, y) => (y.changed - x.changed));
    const p = hashParams();
    app.replaceChildren();
    if (p.pair !== undefined && pairs[+p.pair]) {
      const x = pairs[+p.pair];
      append(app, h("p", {}, h("a", { href: "#", id: "back" }, "← comparison")),
        h("div", { class: "side" },
          h("div", {}, x.ra ? questionView(detail(a, x.ra.i), a, { heading: "A: " + a.name }) : h("p", {}, "not in run A")),
          h("div", {}, x.rb ? questionView(detail(b, x.rb.i), b, { heading: "B: " + b.name }) : h("p", {}, "not in run B"))));
      return;
    }
    const c = comparison;
    const verdictBox = c ? h("div", { class: "verdict", id: "verdict" },
      h("h2", {}, "Paired verdict: " + c.verdict),
      kv([["metric", c.metric_title + " (" + c.metric + ")"], ["A mean", fmt(c.a.mean)], ["B mean", fmt(c.b.mean)],
        ["delta B − A", fmt(c.delta)], ["95% interval", c.interval ? "[" + fmt(c.interval.low) + ", " + fmt(c.interval.high) + "]" : "—"],
        ["signal floor", fmt(c.floor, 2)], ["pairs / questions", c.pairs + " / " + c.questions_paired],
        ["McNemar", c.mcnemar ? "A only " + c.mcnemar.only_a + ", B only " + c.mcnemar.only_b + ", p = " + fmt(c.mcnemar.p_value, 4) : "—"],
        ["where the gold was lost, A → B", Object.keys(c.moves || {}).length
          ? Object.entries(c.moves).map(([m, n]) => m.replace(" -> ", " → ") + " " + n).join(", ") + "; same boundary " + c.unmoved
          : "same boundary " + (c.unmoved || 0)],
        ["bootstrap", c.resamples + " resamples, seed " + c.seed],
        ["unpaired", "only in A " + c.unpaired.only_in_a.length + ", only in B " + c.unpaired.only_in_b.length + ", not measured " + c.unpaired.not_measured.length]]),
      c.note ? h("p", {}, c.note) : null)
      : h("p", { class: "warn", id: "verdict" }, "No paired verdict: " + (DATA.comparison_error || "not computed"));
    const page = Math.max(1, parseInt(p.page || "1", 10) || 1);
    const changed = pairs.filter((x) => x.changed).length;
    const cell = (r) => r ? [boundaryBadge(r), " ", labelBadge(r.verifier.label, r.verifier), " gold " + (r.diagnosis.gold_in_answer === true ? "yes" : r.diagnosis.gold_in_answer === false ? "no" : "n/a")] : "—";
    append(app,
      h("h1", {}, "Compare"),
      kv([["A", a.name + " · " + (a.config.model_id || "") + " · arm " + armA + " · " + ((a.status || {}).state || "?")],
        ["B", b.name + " · " + (b.config.model_id || "") + " · arm " + armB + " · " + ((b.status || {}).state || "?")]]),
      h("h2", {}, "Settings that differ"),
      (DATA.differences || []).length
        ? table(["setting", "A", "B"], DATA.differences.map((d) => h("tr", {}, h("td", { class: "mono" }, d.setting),
            h("td", { class: "mono" }, JSON.stringify(d.a)), h("td", { class: "mono" }, JSON.stringify(d.b)))), { id: "differences" })
        : h("p", { class: "muted", id: "differences" }, "No setting differs between arm " + armA + " of A and arm " + armB + " of B."),
      verdictBox,
      h("h2", {}, changed + " of " + pairs.length + " questions changed outcome (boundary, label or gold)"),
      pager(pairs.length, page, (n) => setHash({ page: String(n) })),
      table(["query", "A", "B", "question"], pairs.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((x) =>
        h("tr", { class: "pair" + (x.changed ? " changed" : ""), "data-changed": x.changed ? "yes" : "no",
          onclick: () => setHash({ pair: String(pairs.indexOf(x)) }) },
        h("td", { class: "mono" }, x.k), h("td", {}, cell(x.ra)), h("td", {}, cell(x.rb)), h("td", { class: "qtext" }, (x.ra || x.rb).question))),
      { id: "pairs" }));
  }

  // ---- sweep and index pages ----
  function renderSweep() {
    const s = DATA.sweep, rec = s.record, links = DATA.links || {};
    const metrics = [...new Set(rec.cells.flatMap((c) => Object.values(c.metrics || {}).flatMap((m) => Object.keys(m))))];
    const armsOf = (c) => Object.keys(c.metrics || {});
    app.replaceChildren();
    append(app, h("h1", {}, "Sweep " + s.name),
      kv([["family", rec.family], ["values", (rec.values || []).join(", ")], ["state", rec.state + (rec.message ? " — " + rec.message : "")],
        ["started", rec.started_at], ["ended", rec.ended_at]]),
      h("h2", {}, "Cells"),
      table(["value", "state", "run", "calls / cache / reused", ...metrics], rec.cells.flatMap((c) => armsOf(c).length ? armsOf(c).map((arm) =>
        h("tr", {}, h("td", {}, c.value + " [" + arm + "]"), h("td", {}, c.state),
          h("td", {}, c.run_dir ? (links.run_base ? h("a", { href: links.run_base + encodeURIComponent(c.run_dir) }, c.run_dir) : c.run_dir) : "—"),
          h("td", {}, c.provider_calls + " / " + c.cache_hits + " / " + c.reused_rows),
          metrics.map((m) => { const v = (c.metrics[arm] || {})[m]; return h("td", { class: "num" }, v ? fmt(v.value) + (v.low !== null ? " [" + fmt(v.low) + ", " + fmt(v.high) + "]" : "") : "—"); })))
        : [h("tr", {}, h("td", {}, c.value), h("td", {}, c.state), h("td", {}, c.run_dir || "—"), h("td", {}, ""), metrics.map(() => h("td", {}, "")))]), { id: "cells" }),
      links.compare ? compareForm(rec.cells.filter((c) => c.run_dir).map((c) => [c.value, links.prefix + c.run_dir]), links.compare) : null,
      h("h2", {}, "Plots"),
      Object.keys(s.plots).length ? Object.entries(s.plots).map(([m, uri]) => { const img = h("img", { alt: m, class: "plot" }); img.src = uri; return h("figure", {}, img, h("figcaption", {}, m)); })
        : h("p", { class: "muted" }, "No plots yet (written when the sweep is summarised)."));
  }
  function compareForm(options, action) {
    const sel = (id) => h("select", { id }, options.map(([label, value]) => h("option", { value }, label)));
    const sa = sel("cmp-a"), sb = sel("cmp-b");
    if (options.length > 1) sb.selectedIndex = 1;
    return h("div", { class: "filters" }, h("b", {}, "Compare "), sa, " with ", sb, " ",
      h("button", { onclick: () => { location.href = action + "?a=" + encodeURIComponent(sa.value) + "&b=" + encodeURIComponent(sb.value); } }, "compare"));
  }
  function renderIndex() {
    const l = DATA.listing;
    app.replaceChildren();
    append(app, h("h1", {}, "Runs under " + l.root),
      l.runs.length ? null : h("p", { class: "muted" }, "No run directories directly under this root."),
      l.runs.length === 0 ? null : table(["run", "state", "rows", "diagnosis"], l.runs.map((r) => h("tr", {},
        h("td", {}, h("a", { href: "/run?path=" + encodeURIComponent(r.name) }, r.name)), h("td", { class: r.damaged ? "warn" : "" }, r.damaged ? "damaged: " + r.damaged : (r.state || "?")),
        h("td", {}, r.rows_done + " / " + (r.rows_total === null || r.rows_total === undefined ? "?" : r.rows_total)),
        h("td", {}, Object.entries(r.diagnosis).map(([arm, c]) => arm + ": " + Object.entries(c).filter(([, n]) => n).map(([b, n]) => b + " " + n).join(", ")).join("; ")))), { id: "runs" }),
      l.runs.length > 1 ? compareForm(l.runs.map((r) => [r.name, r.name]), "/compare") : null,
      h("h2", {}, "Sweeps"),
      l.sweeps.length ? table(["sweep", "family", "values", "state"], l.sweeps.map((s) => h("tr", {},
        h("td", {}, h("a", { href: "/sweep?path=" + encodeURIComponent(s.name) }, s.name)), h("td", {}, s.family || ""),
        h("td", {}, (Array.isArray(s.values) ? s.values : []).join(", ")), h("td", { class: s.damaged ? "warn" : "" }, s.damaged ? "damaged: " + s.damaged : (s.state || ""))))) : h("p", { class: "muted" }, "none"));
  }

  // ---- sentinel ladder and layout bench pages: their facts, warnings and summary tables ----
  function renderDoc() {
    const d = DATA.doc;
    app.replaceChildren();
    append(app, h("h1", {}, d.title), kv(d.facts),
      (d.warnings || []).map((w) => h("p", { class: "warn" }, "Warning: " + w)),
      (d.links || []).length ? h("ul", { id: "links" }, d.links.map(([label, path]) => h("li", {}, label + ": ", h("span", { class: "mono" }, path)))) : null,
      d.tables.length ? d.tables.map((t) => [h("h2", {}, t.title), table(t.headers, t.rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c)))))])
        : h("p", { class: "muted" }, "No summary yet (" + d.kind + " state: " + (d.state || "unknown") + ")."));
  }


  // ---- repair page: questions by verdict, each recovered one's funnel before and after ----
  const VERDICTS = ["recovered", "not recovered by one setting", "unmeasured"];
  function repairAnswer(row, rep, needed, heading) {
    if (!row) return h("div", {}, h("h4", {}, heading), h("p", { class: "muted" }, "no row"));
    const funnel = funnelSummary(row, rep, needed, new Set(row.citation_chunk_ids || []));
    funnel.removeAttribute("id");
    return h("div", { class: "repair-side" }, h("h4", {}, heading), boundaryBadge(row), " ", labelBadge(row.verifier.label),
      " gold " + (row.diagnosis.gold_in_answer === true ? "yes" : row.diagnosis.gold_in_answer === false ? "no" : "n/a"),
      funnel, pre(row.answer || "(no claims: the answer abstained or was unusable)"));
  }
  function repairQuestion(q, rep) {
    const needed = new Set((rep.needed || {})[q.id] || []);
    const by = q.after.map((a) => a.setting + "=" + a.value + " (gold " + (a.gold ? "yes" : "no") + ", STRICT " + (a.strict ? "yes" : "no") + ")");
    return h("div", { class: "repair-q", "data-verdict": q.verdict, "data-id": q.id },
      h("h3", {}, q.id + ": " + q.question),
      h("p", {}, "lost at ", badge(q.boundary, "b-" + q.boundary), " · verdict " + q.verdict + " · tried " + q.tried,
        by.length ? " · recovered by " + by.join("; ") : "", q.why ? " · " + q.why : ""),
      q.after.length ? h("div", { class: "side" }, repairAnswer(q.before, rep, needed, "before: the run"),
        h("div", {}, q.after.map((a) => repairAnswer(a.row, rep, needed, "after: " + a.setting + "=" + a.value)))) : null);
  }
  function renderRepair() {
    const r = DATA.repair, w = r.whole_run;
    const counts = Object.fromEntries(VERDICTS.map((v) => [v, r.questions.filter((q) => q.verdict === v).length]));
    app.replaceChildren();
    append(app, h("h1", {}, "Repair " + r.name),
      kv([["source run", r.run], ["arm", r.arm], ["model", r.model_id], ["prompt", r.prompt],
        ["state", r.state + (r.message ? " — " + r.message : "")]]),
      (r.notes || []).map((n) => h("p", { class: "warn" }, "Note: " + n)),
      r.source_missing ? h("p", { class: "warn" }, r.source_missing) : null,
      h("h2", {}, "Verdicts"),
      table(["verdict", "questions"], VERDICTS.map((v) => h("tr", {}, h("td", {}, v), h("td", { class: "num" }, String(counts[v])))), { id: "verdicts" }),
      h("h2", {}, "Whole-run check"),
      w ? [h("p", {}, w.setting + "=" + w.value + " recovered " + w.recovered + " question(s); the whole run under it, paired with the source run per question" + (w.note ? " (" + w.note + ")" : "") + ":"),
        table(["metric", "gained", "lost", "delta", "95% interval", "McNemar p", "verdict"], [w.gold, w.strict].filter((x) => x).map((x) => h("tr", {},
          h("td", {}, x.metric), h("td", { class: "num" }, String(x.gained)), h("td", { class: "num" }, String(x.lost)), h("td", { class: "num" }, (x.delta > 0 ? "+" : "") + fmt(x.delta)),
          h("td", {}, x.interval ? "[" + fmt(x.interval[0]) + ", " + fmt(x.interval[1]) + "]" : "—"), h("td", { class: "num" }, fmt(x.p_value, 3)), h("td", {}, x.verdict))), { id: "whole-run" })]
        : h("p", { class: "muted", id: "whole-run" }, "No setting recovered a question."),
      h("h2", {}, "Recoveries per setting"),
      (r.settings || []).length ? table(["setting", "value", "tried", "recovered"], r.settings.map((x) => h("tr", {}, h("td", {}, x.setting), h("td", { class: "mono" }, String(x.value)),
        h("td", { class: "num" }, String(x.tried)), h("td", { class: "num" }, String(x.recovered)))), { id: "settings" }) : h("p", { class: "muted" }, "Nothing was re-run."),
      Object.entries(r.plots || {}).map(([m, uri]) => { const img = h("img", { alt: m, class: "plot" }); img.src = uri; return h("figure", {}, img); }),
      VERDICTS.map((v) => [h("h2", {}, v + " (" + counts[v] + ")"),
        r.questions.filter((q) => q.verdict === v).map((q) => repairQuestion(q, r))]));
  }

  const RENDER = { run: renderRun, compare: renderCompare, sweep: renderSweep, index: renderIndex, doc: renderDoc, repair: renderRepair };
  function render() {
    const t0 = performance.now();
    RENDER[DATA.kind]();
    document.body.setAttribute("data-rendered-ms", String(Math.round(performance.now() - t0)));
    document.body.setAttribute("data-ready", "yes");
  }
  window.addEventListener("hashchange", render);
  render();
})();
