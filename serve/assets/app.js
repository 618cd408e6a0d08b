// mateline's tablebase page: a board, the tables' answer for it, every
// legal move grouped by what it keeps, and a button that proves a mate.
// Plain JavaScript, no library: the page works without the network.
"use strict";

const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const START = "8/8/8/4k3/8/8/2RPK3/7r w - - 0 1";
const $ = (id) => document.getElementById(id);
let current = "";

// parse splits a FEN into its board (64 squares, a1 first) and fields.
function parse(fen) {
  const f = fen.trim().split(/\s+/);
  const sq = new Array(64).fill(null);
  const ranks = (f[0] || "").split("/");
  for (let r = 0; r < 8 && r < ranks.length; r++) {
    let file = 0;
    for (const c of ranks[r]) {
      if (c >= "1" && c <= "8") file += Number(c);
      else { if (file < 8) sq[(7 - r) * 8 + file] = c; file++; }
    }
  }
  return { sq, side: f[1] || "w", castling: f[2] || "-", ep: f[3] || "-", half: Number(f[4] || 0), full: Number(f[5] || 1) };
}

function fenOf(p) {
  let rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = "", empty = 0;
    for (let file = 0; file < 8; file++) {
      const c = p.sq[r * 8 + file];
      if (!c) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += c;
    }
    rows.push(row + (empty ? empty : ""));
  }
  return [rows.join("/"), p.side, p.castling || "-", p.ep, p.half, p.full].join(" ");
}

const sqIndex = (s) => (s.charCodeAt(1) - 49) * 8 + (s.charCodeAt(0) - 97);
const sqName = (i) => String.fromCharCode(97 + (i % 8)) + String.fromCharCode(49 + Math.floor(i / 8));

// play returns the FEN after a legal move in UCI notation.
function play(fen, uci) {
  const p = parse(fen);
  const from = sqIndex(uci.slice(0, 2)), to = sqIndex(uci.slice(2, 4));
  const piece = p.sq[from], kind = piece.toLowerCase(), white = piece === piece.toUpperCase();
  const captured = p.sq[to];
  if (kind === "p" && uci.slice(2, 4) === p.ep && !captured) p.sq[to + (white ? -8 : 8)] = null;
  if (kind === "k" && Math.abs((to % 8) - (from % 8)) === 2) {
    const rank = Math.floor(from / 8) * 8, kingside = to % 8 === 6;
    p.sq[rank + (kingside ? 5 : 3)] = p.sq[rank + (kingside ? 7 : 0)];
    p.sq[rank + (kingside ? 7 : 0)] = null;
  }
  p.sq[to] = uci.length > 4 ? (white ? uci[4].toUpperCase() : uci[4]) : piece;
  p.sq[from] = null;
  let c = p.castling === "-" ? "" : p.castling;
  const drop = (letters) => { for (const l of letters) c = c.replace(l, ""); };
  if (kind === "k") drop(white ? "KQ" : "kq");
  for (const [s, l] of [[0, "Q"], [7, "K"], [56, "q"], [63, "k"]]) if (from === s || to === s) drop(l);
  p.castling = c || "-";
  p.ep = kind === "p" && Math.abs(to - from) === 16 ? sqName((from + to) / 2) : "-";
  p.half = kind === "p" || captured ? 0 : p.half + 1;
  if (!white) p.full++;
  p.side = white ? "b" : "w";
  return fenOf(p);
}

function drawBoard(fen) {
  const p = parse(fen);
  const s = 45;
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${8 * s} ${8 * s}">`;
  for (let r = 7; r >= 0; r--) {
    for (let f = 0; f < 8; f++) {
      const x = f * s, y = (7 - r) * s, light = (r + f) % 2 === 1;
      svg += `<rect x="${x}" y="${y}" width="${s}" height="${s}" fill="${light ? "#eed9b6" : "#b58863"}"/>`;
      const c = p.sq[r * 8 + f];
      if (c) {
        const white = c === c.toUpperCase();
        svg += `<text x="${x + s / 2}" y="${y + s * 0.8}" font-size="${s * 0.85}" text-anchor="middle" ` +
          `fill="${white ? "#fff" : "#111"}" stroke="${white ? "#111" : "#111"}" stroke-width="${white ? 1.2 : 0.4}" ` +
          `font-family="DejaVu Sans, Noto Sans Symbols2, Segoe UI Symbol, sans-serif">${GLYPH[c.toLowerCase()]}</text>`;
      }
    }
  }
  $("board").innerHTML = svg + "</svg>";
  $("tomove").textContent = (p.side === "w" ? "White" : "Black") + " to move";
}

const sideName = (side) => (side === "w" ? "White" : "Black");
const other = (side) => (side === "w" ? "b" : "w");

// statusLine says what the position is worth: "White mates in 23".
function statusLine(r, side) {
  if (r.checkmate) return `Checkmate: ${sideName(other(side))} wins`;
  if (r.stalemate) return "Stalemate: draw";
  if (r.insufficient_material) return "Draw: no side can mate";
  const dtm = r.dtm;
  let s;
  if (dtm !== null && dtm > 0) s = `${sideName(side)} mates in ${(dtm + 1) / 2}`;
  else if (dtm !== null && dtm < 0) s = `${sideName(other(side))} mates in ${-dtm / 2}`;
  else if (dtm === 0) s = "Draw";
  else s = { win: `${sideName(side)} wins`, loss: `${sideName(other(side))} wins`, draw: "Draw" }[r.category] || "Unknown";
  const notes = { "cursed-win": " (but the 50-move rule draws)", "blessed-loss": " (but the 50-move rule saves the defender)",
    "maybe-win": " (the 50-move rule may intervene)", "maybe-loss": " (the 50-move rule may intervene)",
    "syzygy-win": " (the 50-move rule may intervene)", "syzygy-loss": " (the 50-move rule may intervene)" };
  return s + (notes[r.category] || "");
}

// groupOf names what a move keeps for the mover, from the category it
// leaves to the opponent.
function groupOf(c) {
  if (["loss", "syzygy-loss", "maybe-loss", "blessed-loss"].includes(c)) return "win";
  if (c === "draw") return "draw";
  if (c === "unknown") return "unknown";
  return "loss";
}

function moveItem(m) {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button";
  b.className = "move";
  b.dataset.uci = m.uci;
  let html = `<span class="san">${m.san}</span>`;
  if (m.checkmate) html += `<span class="badge dtm">mate</span>`;
  else if (m.dtm !== null && m.dtm < 0) html += `<span class="badge dtm">mate in ${(-m.dtm) / 2 + 1}</span>`;
  else if (m.dtm !== null && m.dtm > 0) html += `<span class="badge dtm">mated in ${(m.dtm + 1) / 2}</span>`;
  else if (m.dtm === 0) html += `<span class="badge dtm">draw</span>`;
  if (m.dtz !== null && m.dtz !== 0) html += `<span class="badge dtz">DTZ ${Math.abs(m.dtz)}</span>`;
  b.innerHTML = html;
  b.addEventListener("click", () => go(play(current, m.uci), true));
  li.appendChild(b);
  return li;
}

function showMoves(moves) {
  const box = $("moves");
  box.innerHTML = "";
  const titles = { win: "Winning", draw: "Drawing", loss: "Losing", unknown: "Unknown" };
  for (const g of ["win", "draw", "loss", "unknown"]) {
    const ms = moves.filter((m) => groupOf(m.category) === g);
    if (!ms.length) continue;
    const div = document.createElement("div");
    div.className = "group " + g;
    div.innerHTML = `<h2>${titles[g]}</h2>`;
    const ul = document.createElement("ul");
    ms.forEach((m) => ul.appendChild(moveItem(m)));
    div.appendChild(ul);
    box.appendChild(div);
  }
}

async function go(fen, push) {
  current = fen;
  $("fen").value = fen;
  $("proof").textContent = "";
  $("error").hidden = true;
  drawBoard(fen);
  if (push) history.pushState({ fen }, "", "?fen=" + encodeURIComponent(fen.replace(/ /g, "_")));
  $("status").textContent = "\u2026";
  $("moves").innerHTML = "";
  try {
    const res = await fetch("/standard?fen=" + encodeURIComponent(fen));
    const body = await res.json();
    if (fen !== current) return;
    if (!res.ok) throw new Error(body.error || res.statusText);
    $("status").textContent = statusLine(body, parse(fen).side);
    showMoves(body.moves);
  } catch (e) {
    if (fen !== current) return;
    $("status").textContent = "No table answers this position";
    $("error").textContent = e.message;
    $("error").hidden = false;
  }
}

// numbered writes a line of SAN moves with their numbers.
function numbered(fen, sans) {
  const p = parse(fen);
  let n = p.full, white = p.side === "w", out = [];
  sans.forEach((s, i) => {
    if (white) out.push(`${n}. ${s}`);
    else out.push(i === 0 ? `${n}... ${s}` : s);
    if (!white) n++;
    white = !white;
  });
  return out.join(" ");
}

async function prove() {
  const fen = current;
  $("proving").hidden = false;
  $("proof").textContent = "";
  try {
    const res = await fetch("/solve?timeout=5s&fen=" + encodeURIComponent(fen));
    const r = await res.json();
    if (fen !== current) return;
    if (!res.ok) throw new Error(r.error || res.statusText);
    let s;
    if (r.status === "mate" && r.mate > 0) s = `Mate in ${r.mate}, proved shortest`;
    else if (r.status === "mate") s = `Mated in ${-r.mate}, proved: no defence holds out longer`;
    else if (r.status === "limit" && r.mate_within > 0) s = `Mate in ${r.mate_within} proved; no mate in ${r.depth} or fewer; shortest not yet proved`;
    else if (r.status === "limit" && r.mate_within < 0) s = `Mated in ${-r.mate_within} at most, proved`;
    else if (r.status === "limit") s = `No mate in ${r.depth} moves or fewer proved before the time ran out`;
    else if (r.status === "capped") s = `No mate in ${r.depth} moves or fewer (proved)`;
    else if (r.status === "no-mate") s = r.note ? `No mate: ${r.note}` : "No mate at any length";
    else s = r.error || r.status;
    $("proof").innerHTML = "";
    const p = document.createElement("p");
    p.textContent = s;
    $("proof").appendChild(p);
    if (r.pv_san && r.pv_san.length) {
      const l = document.createElement("p");
      l.className = "line";
      l.textContent = numbered(fen, r.pv_san);
      $("proof").appendChild(l);
    }
  } catch (e) {
    $("proof").textContent = "The search failed: " + e.message;
  } finally {
    $("proving").hidden = true;
  }
}

$("fenform").addEventListener("submit", (e) => {
  e.preventDefault();
  go($("fen").value.trim().replace(/_/g, " "), true);
});
$("prove").addEventListener("click", prove);
window.addEventListener("popstate", (e) => go(e.state && e.state.fen ? e.state.fen : START, false));
const q = new URLSearchParams(location.search).get("fen");
const first = q ? q.replace(/_/g, " ") : START;
history.replaceState({ fen: first }, "", location.search || "?fen=" + encodeURIComponent(first.replace(/ /g, "_")));
go(first, false);
