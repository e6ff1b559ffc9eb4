// Shared helpers of analyzer's pages: a tiny DOM builder, tap controls, the API.
"use strict";
const GAME = document.querySelector('meta[name="game"]').content;

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (v !== null && v !== undefined && v !== false) el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

// A row of chips; tapping one calls onTap(value). `on(value)` says which are lit,
// `off(value)` (optional) which cannot be tapped now.
function chips(options, on, onTap, label, off) {
  return h("div", {class: "row", "data-name": label || null},
    label ? h("span", {class: "label"}, label) : null,
    options.map(([value, text]) => h("button", {
      class: "chip" + (on(value) ? " on" : ""), type: "button",
      "data-value": String(value), "aria-pressed": on(value) ? "true" : "false",
      disabled: !!(off && off(value)),
      onclick: () => onTap(value)}, text)));
}

// A number set with - and + (and optionally "not given": null).
function stepper(label, value, min, max, onChange, allowNone, name) {
  const show = value === null ? "—" : String(value);
  const step = (d) => {
    let v = value === null ? (d > 0 ? min : null) : value + d;
    if (v !== null && v < min) v = allowNone ? null : min;
    if (v !== null && v > max) v = max;
    onChange(v);
  };
  return h("div", {class: "row"},
    h("span", {class: "label"}, label),
    h("span", {class: "stepper", "data-name": name || label},
      h("button", {type: "button", class: "minus", "aria-label": label + " minus", onclick: () => step(-1)}, "−"),
      h("output", {}, show),
      h("button", {type: "button", class: "plus", "aria-label": label + " plus", onclick: () => step(1)}, "+")));
}

async function api(path, body) {
  const opts = body === undefined ? {} : {method: "POST", headers: {"content-type": "application/json"},
                                          body: JSON.stringify(body)};
  let res;
  try { res = await fetch(path, opts); }
  catch (e) { return {ok: false, error: "the server did not answer (" + e + ")"}; }
  const text = await res.text();
  if (!res.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error || text; } catch (e) { /* plain text */ }
    return {ok: false, status: res.status, error: msg};
  }
  try { return {ok: true, data: JSON.parse(text), text}; }
  catch (e) { return {ok: true, data: null, text}; }
}

const pct = (x) => (100 * x).toFixed(1) + "%";
const interval = (lo, hi) => "[" + (100 * lo).toFixed(1) + ", " + (100 * hi).toFixed(1) + "]";

// What a wait shows after `s` seconds when it was estimated at `est` seconds (null: no
// estimate): a bar of the estimated time (`width` in %, null: a bar that knows no end)
// and its words; past the estimate it says so, never a bar stalled near its end.
function progressWords(s, est, what) {
  const secs = `${s.toFixed(0)} s`;
  if (!(est > 0)) return {width: null, over: false, text: `${what}… ${secs}`};
  const about = `about ${Math.max(1, Math.round(est))} s`;
  if (s <= est) return {width: 100 * s / est, over: false, text: `${what}… ${secs} of ${about} (estimated on this machine)`};
  return {width: null, over: true, text: `${what}: taking longer than estimated… ${secs} (estimated ${about})`};
}

// Progress of a request estimated at `seconds` (null: not known yet): a bar of the time
// and the elapsed seconds (progressWords); know(seconds) gives the estimate later;
// stop() clears it.
function progress(el, seconds, what) {
  const bar = h("div", {});
  const box = h("div", {class: "progress", role: "progressbar"}, bar);
  const text = h("div", {class: "muted", id: "progress-text"}, what + "…");
  el.replaceChildren(box, text);
  const t0 = performance.now();
  let est = seconds;
  const tick = () => {
    const w = progressWords((performance.now() - t0) / 1000, est, what);
    box.classList.toggle("unknown", w.width === null);
    bar.style.width = w.width === null ? "" : w.width + "%";
    text.textContent = w.text;
  };
  const timer = setInterval(tick, 200);
  return {stop() { clearInterval(timer); }, know(seconds) { est = seconds; tick(); }};
}

// This page's game's deep advice estimate on this machine (GET /api/games: seconds at
// its default budget), or null.
async function deepSeconds() {
  const g = await api("/api/games");
  const me = g.ok && Array.isArray(g.data) ? g.data.find((x) => x.name === GAME) : null;
  return me && typeof me.deep_seconds === "number" ? me.deep_seconds : null;
}

// Calls fn after `ms` without another call; only the newest call's answer is shown.
function latest(fn, ms) {
  let timer = null, ticket = 0;
  return (...args) => {
    clearTimeout(timer);
    const mine = ++ticket;
    timer = setTimeout(async () => { await fn(() => mine === ticket, ...args); }, ms);
  };
}

// The sticky line at the bottom: the current answer (or error) in one line; tapping it
// scrolls to the whole answer.
function answerBar(text, target, isError) {
  const bar = document.getElementById("answer-bar");
  bar.textContent = text;
  bar.classList.toggle("error", !!isError);
  bar.onclick = () => { const el = document.getElementById(target); if (el) el.scrollIntoView({behavior: "smooth"}); };
}

// A deep advice as it comes (any game's advise --deep --json): each choice with its estimates and their 95% intervals
// (win chance, final score, points: whichever the answer carries), best first;
// `pretty` turns a choice's name into what the page shows.
function deepView(d, pretty) {
  const cs = d.choices || [], noise = new Set(d.within_noise_of_best || []);
  const name = (c) => c.choice || JSON.stringify(c);
  const est = [["win", "win chance", pct], ["score", "final score (points)", (x) => Number(x).toFixed(1)],
               ["points", "points this turn", (x) => Number(x).toFixed(2)]].filter(([k]) => cs.some((c) => typeof c[k] === "number"));
  if (cs.length) answerBar(`deep advice: ${pretty(name(cs[0]))}` +
    (est.length ? `, ${est[0][1]} ${est[0][2](cs[0][est[0][0]])}` : ""), "deep-out");
  const ci = (c, k, f) => { const b = c[k + "_ci95"]; return b ? ` [${f(b[0])}, ${f(b[1])}]` : ""; };
  return h("div", {},
    d.follow ? followLine({...d, follow: pretty(d.follow)}) : null,
    h("table", {id: "deep-table"},
      h("tr", {}, h("th", {}, "choice"), est.map(([, t]) => h("th", {}, t + " [95%]"))),
      cs.map((c, i) => h("tr", {"data-choice": name(c)},
        h("td", {}, pretty(name(c)), i === 0 ? " ★" : null,
          i > 0 && noise.has(name(c)) ? h("div", {class: "noise"}, "within noise of the best (the rollouts cannot tell them apart)") : null),
        est.map(([k, , f]) => h("td", {}, typeof c[k] === "number" ? f(c[k]) + ci(c, k, f) : ""))))),
    h("p", {class: "note"}, [d.rollouts ? `${Number(d.rollouts).toLocaleString()} rollouts` : null,
      d.seed !== undefined ? `seed ${d.seed}` : null].filter(Boolean).join(", ") +
      (d.assumed ? ". Assumed: " + [].concat(d.assumed).join("; ") + "." : "")));
}

// Asks this page's game for its deep advice with `body` (the state, ...): one at a time
// (the button #deep-go waits), a progress bar of its time as estimated on this machine
// (deepSeconds; `seconds` until it comes, null: none), then `draw(data, out)` fills
// #deep-out, or the error does.
async function askDeep(body, seconds, draw) {
  const out = document.getElementById("deep-out");
  const go = document.getElementById("deep-go");
  go.disabled = true;  // one deep advice at a time
  const p = progress(out, seconds, "playing every choice to the end of the game");
  deepSeconds().then((s) => { if (s !== null) p.know(s); });
  const r = await api(`/api/${GAME}/advise`, {...body, deep: true});
  p.stop();
  go.disabled = false;
  if (!r.ok) { out.replaceChildren(h("p", {class: "error", id: "deep-error"}, r.error)); return; }
  // a seed above 2^53 loses digits as a JavaScript number: show the one the server sent
  const seed = (r.text || "").match(/"seed":\s*(\d+)/);
  if (seed && r.data) r.data.seed = seed[1];
  draw(r.data, out);
}

// The deep advice's card in place of the element `id`: its button #deep-go calls `ask`,
// its answer goes to #deep-out; the card (#deep-box) shows only where this page's game
// answers the deep advice (a game's advise may refuse it: GET /api/games says).
function offerDeep(id, ask) {
  const box = h("section", {class: "card", id: "deep-box", hidden: true},
    h("div", {class: "row"},
      h("button", {type: "button", class: "primary", id: "deep-go", onclick: ask}, "Deep advice: win chance"),
      h("span", {class: "muted"}, "plays each choice to the end of the game many times")),
    h("div", {id: "deep-out"}));
  document.getElementById(id).replaceWith(box);
  api("/api/games").then((g) => {
    const me = g.ok ? g.data.find((x) => x.name === GAME) : null;
    box.hidden = !(me && me.deep);
  });
}

// The table kept over reloads and shareable as a link: keepTable(S) writes the page's
// state to this browser's storage and to the address (#t=...), so a reload, a discarded
// tab or the link sent to a friend opens the same table; keptTable() reads it back (the
// address first: a shared link wins over what this browser kept), or null.
const KEEP_KEY = "analyzer-table:" + GAME;
function keepTable(state) {
  const text = JSON.stringify({v: 1, state});
  try { localStorage.setItem(KEEP_KEY, text); } catch (e) { /* private mode: the link still works */ }
  try { history.replaceState(null, "", "#t=" + encodeURIComponent(text)); } catch (e) { /* file: pages */ }
}
function keptTable() {
  const read = (text) => {
    try { const o = JSON.parse(text); return o && o.v === 1 && o.state && typeof o.state === "object" ? o.state : null; }
    catch (e) { return null; }
  };
  const m = location.hash.match(/^#t=(.*)$/);
  if (m) { try { const got = read(decodeURIComponent(m[1])); if (got) return got; } catch (e) { /* a bad link */ } }
  try { return read(localStorage.getItem(KEEP_KEY)); } catch (e) { return null; }
}
// Opens the page on the kept table when there is one: load(kept) then draw(); a kept
// table this page can no longer draw (an older page's) gives way to fresh() and is forgotten.
function openTable(load, fresh, draw) {
  const kept = keptTable();
  if (kept) {
    try { load(kept); draw(); return true; }
    catch (e) { try { localStorage.removeItem(KEEP_KEY); } catch (e2) { /* nothing kept */ } }
  }
  fresh();
  draw();
  return false;
}

// Which ranking to follow when the deep advice and the quick one differ (the deep
// answer's `follow`, in words), as a paragraph; nothing when the answer has none.
function followLine(d) {
  if (!d || typeof d.follow !== "string" || !d.follow) return null;
  return h("p", {class: d.quick_agrees ? "note" : "follow", id: "deep-follow"}, d.follow);
}

async function fillHeader() {
  const r = await api("/api/games");
  if (!r.ok) return;
  const sel = h("select", {"aria-label": "game", onchange: (e) => { location.href = e.target.value; }},
    h("option", {value: "/"}, "choose a game"),
    r.data.map((g) => h("option", {value: "/game/" + g.name, selected: g.name === GAME}, g.title)));
  document.getElementById("game-name").replaceChildren(sel);
}
document.addEventListener("DOMContentLoaded", fillHeader);
