// Drawing the roads as SVG. The positions come from the server (games/baccarat/roads.py):
// the page only draws them. Every entry is a <g class="cell"> carrying its data (col, row,
// winner, ties, ...), so what is drawn can be checked against /roads.json. A road's cells are
// as tall as its panel allows; when its columns no longer fit they narrow, so the whole road
// stays in view. A road given a smallest cell (the derived roads) stops narrowing there and
// keeps its latest columns in view, as the boards at the table do.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const ROWS = 6;

function svgElement(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function drawRoad(svg, entries, drawEntry, smallestCell) {
  const box = svg.getBoundingClientRect();
  const fitting = Math.max(1, Math.floor(box.width / Math.max(box.height / ROWS, 1)));  // at full height
  const used = entries.reduce((most, e) => Math.max(most, e.col), -1) + 1;
  const most = smallestCell ? Math.max(fitting, Math.floor(box.width / smallestCell)) : Infinity;
  const visible = Math.min(Math.max(fitting, used), most);
  const first = Math.max(0, used - visible);
  svg.setAttribute("viewBox", `${first} 0 ${visible} ${ROWS}`);
  svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
  svg.replaceChildren();
  svgElement("rect", {class: "road-bg", x: first, y: 0, width: visible, height: ROWS, rx: 0.08}, svg);
  const grid = svgElement("g", {class: "grid"}, svg);
  for (let col = first; col <= first + visible; col++) {
    svgElement("line", {x1: col, y1: 0, x2: col, y2: ROWS}, grid);
  }
  for (let row = 0; row <= ROWS; row++) {
    svgElement("line", {x1: first, y1: row, x2: first + visible, y2: row}, grid);
  }
  for (const entry of entries) {
    const g = svgElement("g", {class: "cell", transform: `translate(${entry.col} ${entry.row})`,
                               "data-col": entry.col, "data-row": entry.row}, svg);
    drawEntry(g, entry);
  }
}

function pairDots(g, entry) {
  if (entry.banker_pair) svgElement("circle", {class: "pair banker", cx: 0.2, cy: 0.2, r: 0.11}, g);
  if (entry.player_pair) svgElement("circle", {class: "pair player", cx: 0.8, cy: 0.8, r: 0.11}, g);
}

const SIDE_CLASS = {B: "banker", P: "player", T: "tie"};

function drawBigRoadCell(g, cell) {
  Object.assign(g.dataset, {winner: cell.winner, ties: cell.ties, bankerPair: cell.banker_pair,
                            playerPair: cell.player_pair, round: cell.round ?? ""});
  svgElement("circle", {class: `ring ${SIDE_CLASS[cell.winner]}`, cx: 0.5, cy: 0.5, r: 0.36}, g);
  if (cell.ties > 0) {
    svgElement("line", {class: "tie-slash", x1: 0.22, y1: 0.78, x2: 0.78, y2: 0.22}, g);
    if (cell.ties > 1) {
      const text = svgElement("text", {class: "tie-count", x: 0.5, y: 0.56}, g);
      text.textContent = cell.ties;
    }
  }
  pairDots(g, cell);
}

function beadDrawer(label) {
  return (g, bead) => {
    Object.assign(g.dataset, {outcome: bead.outcome, bankerPair: bead.banker_pair,
                              playerPair: bead.player_pair, round: bead.round ?? ""});
    svgElement("circle", {class: `bead ${SIDE_CLASS[bead.outcome]}`, cx: 0.5, cy: 0.5, r: 0.43}, g);
    const text = svgElement("text", {class: "bead-label", x: 0.5, y: 0.52}, g);
    text.textContent = label("bead_" + bead.outcome);
    pairDots(g, bead);
  };
}

// Big Eye Boy: hollow circles; Small Road: solid dots; Cockroach Pig: slashes.
const DERIVED_SHAPES = {
  "big_eye_boy": (g, colour) => svgElement("circle", {class: `ring ${colour}`, cx: 0.5, cy: 0.5, r: 0.34}, g),
  "small_road": (g, colour) => svgElement("circle", {class: `dot ${colour}`, cx: 0.5, cy: 0.5, r: 0.36}, g),
  "cockroach_pig": (g, colour) => svgElement("line", {class: `slash ${colour}`, x1: 0.2, y1: 0.8, x2: 0.8, y2: 0.2}, g),
};

function derivedDrawer(road) {
  return (g, mark) => {
    g.dataset.colour = mark.colour;
    DERIVED_SHAPES[road](g, mark.colour);
  };
}

// One mark of a derived road on its own (the ask road), or a dash when it would add nothing.
function askMark(road, colour) {
  const svg = svgElement("svg", {class: "ask-mark", viewBox: "0 0 1 1", "data-road": road, "data-colour": colour || ""});
  if (colour) DERIVED_SHAPES[road](svg, colour);
  else svgElement("line", {class: "none", x1: 0.3, y1: 0.5, x2: 0.7, y2: 0.5}, svg);
  return svg;
}
