// mateline's tablebase page: a board (with coordinates, moves played by
// clicking or dragging, a position editor, flip), the tables' answer for
// it, every legal move grouped by what it keeps, and a button that proves
// a mate. Plain JavaScript, no library: the page works without the
// network.
"use strict";

const GLYPH = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
// buttonGlyph draws a man for a button as the board draws it.
const buttonGlyph = (man) => `<svg viewBox="0 0 45 45" width="1.4em" height="1.4em" aria-hidden="true">${glyph(man, 22.5, 36, 38)}</svg>`;
const START = "8/8/8/4k3/8/8/2RPK3/7r w - - 0 1";
const $ = (id) => document.getElementById(id);
let current = "";
// the board's state: the legal moves of the current position (from the
// server's answer), the square picked to move from, the board turned,
// the piece dragged, and the editor's position and chosen man
const ui = { moves: [], selected: null, flipped: false, drag: null, editing: null, palette: "Q" };

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

const SQ = 45; // a square's size in the board's drawing

// viewSquare is the square drawn at column c, row r from the top.
const viewSquare = (c, r) => (ui.flipped ? r * 8 + (7 - c) : (7 - r) * 8 + c);

// targets are the squares the man on from may move to.
function targets(from) {
  const name = sqName(from);
  return new Set(ui.moves.filter((m) => m.uci.startsWith(name)).map((m) => sqIndex(m.uci.slice(2, 4))));
}

function glyph(c, x, y, size, extra) {
  const white = c === c.toUpperCase();
  return `<text x="${x}" y="${y}" font-size="${size}" text-anchor="middle" ` +
    `fill="${white ? "#fff" : "#111"}" stroke="#111" stroke-width="${white ? 1.2 : 0.4}" ${extra || ""} ` +
    `font-family="DejaVu Sans, Noto Sans Symbols2, Segoe UI Symbol, sans-serif">${GLYPH[c.toLowerCase()]}</text>`;
}

// drawBoard draws fen's position (the editor's while editing): squares,
// coordinates, the square picked and where its man may go, the men.
function drawBoard(fen) {
  const p = ui.editing || parse(fen);
  const s = SQ;
  const to = ui.selected === null ? new Set() : targets(ui.selected);
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${8 * s} ${8 * s}">`;
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      const i = viewSquare(c, r), x = c * s, y = r * s;
      const light = (Math.floor(i / 8) + (i % 8)) % 2 === 1;
      svg += `<rect x="${x}" y="${y}" width="${s}" height="${s}" fill="${light ? "#eed9b6" : "#b58863"}"/>`;
      if (i === ui.selected) svg += `<rect x="${x}" y="${y}" width="${s}" height="${s}" fill="#f7ec5e" opacity="0.6"/>`;
      const ink = light ? "#b58863" : "#eed9b6";
      if (r === 7) svg += `<text class="coord" x="${x + s - 3}" y="${y + s - 3}" font-size="10" text-anchor="end" fill="${ink}">${sqName(i)[0]}</text>`;
      if (c === 0) svg += `<text class="coord" x="${x + 2}" y="${y + 11}" font-size="10" fill="${ink}">${sqName(i)[1]}</text>`;
      const man = p.sq[i];
      if (man) svg += glyph(man, x + s / 2, y + s * 0.8, s * 0.85, ui.drag && ui.drag.from === i ? 'opacity="0.35"' : "");
      if (to.has(i)) {
        svg += man ? `<circle cx="${x + s / 2}" cy="${y + s / 2}" r="${s * 0.45}" fill="none" stroke="#2b3a4a" stroke-width="3" opacity="0.5"/>`
          : `<circle cx="${x + s / 2}" cy="${y + s / 2}" r="${s * 0.15}" fill="#2b3a4a" opacity="0.5"/>`;
      }
    }
  }
  if (ui.drag) svg += glyph(ui.drag.man, ui.drag.x, ui.drag.y + s * 0.3, s * 0.85, 'id="dragged" pointer-events="none"');
  $("board").innerHTML = svg + "</svg>";
  $("tomove").textContent = ui.editing ? "Editing the position" : (p.side === "w" ? "White" : "Black") + " to move";
}

// pointer gives the square under a pointer event (null off the board)
// and the point in the drawing's coordinates.
function pointer(e) {
  const box = $("board").firstChild.getBoundingClientRect();
  const x = ((e.clientX - box.left) / box.width) * 8 * SQ, y = ((e.clientY - box.top) / box.height) * 8 * SQ;
  const c = Math.floor(x / SQ), r = Math.floor(y / SQ);
  return { sq: c >= 0 && c < 8 && r >= 0 && r < 8 ? viewSquare(c, r) : null, x, y };
}

// moveFromTo plays the move from one square to another, asking which
// man a pawn promotes to; false when no legal move goes there.
function moveFromTo(from, to) {
  const uci = sqName(from) + sqName(to);
  const cands = ui.moves.filter((m) => m.uci.slice(0, 4) === uci);
  if (!cands.length) return false;
  if (cands.length === 1) {
    go(play(current, cands[0].uci), true);
    return true;
  }
  const box = $("promotion");
  box.innerHTML = "Promote to ";
  const white = parse(current).side === "w";
  for (const m of cands) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "promote";
    b.dataset.uci = m.uci;
    b.innerHTML = buttonGlyph(white ? m.uci[4].toUpperCase() : m.uci[4]);
    b.title = m.san;
    b.addEventListener("click", () => { box.hidden = true; go(play(current, m.uci), true); });
    box.appendChild(b);
  }
  box.hidden = false;
  box.dataset.side = white ? "w" : "b";
  ui.selected = null;
  drawBoard(current);
  return true;
}

// The board's pointer: a man of the side to move is picked by a click or
// dragged; a click on a square it may go to, or a drop there, plays the
// move. While editing, a click puts the chosen man on a square (or takes
// one like it off), a drag moves a man, a drop off the board removes it.
function onPointerDown(e) {
  if (e.button !== 0) return; // the main button only
  const at = pointer(e);
  if (at.sq === null) return;
  e.preventDefault();
  $("promotion").hidden = true;
  if (ui.editing) {
    const man = ui.editing.sq[at.sq];
    if (man) startDrag(e, at, man);
    else editSquare(at.sq);
    return;
  }
  if (ui.selected !== null && ui.selected !== at.sq && moveFromTo(ui.selected, at.sq)) {
    ui.selected = null;
    return;
  }
  const man = parse(current).sq[at.sq];
  if (man && targets(at.sq).size > 0) {
    ui.selected = at.sq;
    startDrag(e, at, man);
  } else {
    ui.selected = null;
    drawBoard(current);
  }
}

function startDrag(e, at, man) {
  ui.drag = { from: at.sq, man, x: at.x, y: at.y, x0: at.x, y0: at.y, moved: false };
  $("board").setPointerCapture(e.pointerId);
  drawBoard(current);
}

function onPointerMove(e) {
  if (!ui.drag) return;
  const at = pointer(e);
  ui.drag.x = at.x;
  ui.drag.y = at.y;
  // a move of a few pixels is still a click
  if (Math.hypot(at.x - ui.drag.x0, at.y - ui.drag.y0) > SQ / 4) ui.drag.moved = true;
  const d = document.getElementById("dragged");
  if (d) { d.setAttribute("x", at.x); d.setAttribute("y", at.y + SQ * 0.3); }
}

function onPointerUp(e) {
  if (!ui.drag) return;
  const drag = ui.drag;
  ui.drag = null;
  const at = pointer(e);
  if (ui.editing) {
    if (at.sq === drag.from && !drag.moved) editSquare(at.sq);
    else if (at.sq === drag.from) drawBoard(current); // dropped back where it was
    else {
      ui.editing.sq[drag.from] = null;
      if (at.sq !== null) ui.editing.sq[at.sq] = drag.man;
      drawBoard(current);
    }
    return;
  }
  if (at.sq !== null && at.sq !== drag.from && moveFromTo(drag.from, at.sq)) {
    ui.selected = null;
    return;
  }
  drawBoard(current);
}

// editSquare puts the chosen man on sq, or takes off a man like it (the
// eraser takes off any).
function editSquare(sq) {
  const p = ui.editing;
  p.sq[sq] = ui.palette === "x" || p.sq[sq] === ui.palette ? null : ui.palette;
  drawBoard(current);
}

// The editor: a palette of men, the side to move, clear, done, cancel.
function startEditing() {
  const p = parse(current);
  ui.editing = { sq: p.sq.slice(), side: p.side };
  ui.selected = null;
  $("promotion").hidden = true;
  $("side").value = p.side;
  $("editor").hidden = false;
  $("edit").hidden = true;
  drawBoard(current);
}

// closeEditor leaves the editor without a word (a new position came).
function closeEditor() {
  ui.editing = null;
  $("editor").hidden = true;
  $("edit").hidden = false;
}

function stopEditing(apply) {
  const p = ui.editing;
  closeEditor();
  if (!apply) { drawBoard(current); return; }
  // castling rights and en passant are left out: the tables hold no
  // position with them
  go(fenOf({ sq: p.sq, side: $("side").value, castling: "-", ep: "-", half: 0, full: 1 }), true);
}

function buildPalette() {
  const box = $("palette");
  for (const man of ["K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p", "x"]) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "man" + (man === ui.palette ? " chosen" : "");
    b.dataset.man = man;
    if (man === "x") b.textContent = "\u2715";
    else b.innerHTML = buttonGlyph(man);
    b.title = man === "x" ? "remove" : (man === man.toUpperCase() ? "white " : "black ") + { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" }[man.toLowerCase()];
    b.addEventListener("click", () => {
      ui.palette = man;
      for (const o of box.children) o.classList.toggle("chosen", o === b);
    });
    box.appendChild(b);
  }
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
  else if (m.stalemate) html += `<span class="badge dtm">stalemate</span>`;
  else if (m.insufficient_material) html += `<span class="badge dtm">dead draw</span>`;
  if (m.category === "unknown") html += `<span class="badge none">no table</span>`;
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
  ui.moves = [];
  ui.selected = null;
  closeEditor();
  $("promotion").hidden = true;
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
    // a position no table answers still has its legal moves
    ui.moves = body.moves || [];
    showMoves(ui.moves);
    if (!res.ok) throw new Error(body.error || res.statusText);
    $("status").textContent = statusLine(body, parse(fen).side);
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
$("board").addEventListener("pointerdown", onPointerDown);
$("board").addEventListener("pointermove", onPointerMove);
$("board").addEventListener("pointerup", onPointerUp);
$("board").addEventListener("pointercancel", () => { ui.drag = null; drawBoard(current); });
$("flip").addEventListener("click", () => { ui.flipped = !ui.flipped; drawBoard(current); });
$("edit").addEventListener("click", startEditing);
$("done").addEventListener("click", () => stopEditing(true));
$("cancel").addEventListener("click", () => stopEditing(false));
$("clear").addEventListener("click", () => { ui.editing.sq.fill(null); drawBoard(current); });
buildPalette();
window.addEventListener("popstate", (e) => go(e.state && e.state.fen ? e.state.fen : START, false));
const q = new URLSearchParams(location.search).get("fen");
const first = q ? q.replace(/_/g, " ") : START;
history.replaceState({ fen: first }, "", location.search || "?fen=" + encodeURIComponent(first.replace(/ /g, "_")));
go(first, false);
