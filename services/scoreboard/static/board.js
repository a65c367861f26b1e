// The board: follows /events (server-sent events) and redraws what each update changes.
// EventSource reconnects by itself and sends Last-Event-ID, so the server brings the page up
// to date after any gap. window.boardTimings records, per update, when the record was
// journaled, when the update arrived and when its redraw was painted (bench/bench_scoreboard.py).
"use strict";

const params = new URLSearchParams(location.search);
const state = {board: null, round: null, link: null, connected: false};
window.boardTimings = [];
const TIMINGS_KEPT = 5000;

function language() {
  const wanted = params.get("lang") || (state.board && state.board.lang) || "en";
  return LABELS[wanted] ? wanted : "en";
}

function label(key, fields) {
  let text = LABELS[language()][key] ?? LABELS.en[key] ?? key;
  for (const [name, value] of Object.entries(fields || {})) text = text.replace(`{${name}}`, value);
  return text;
}

function node(tag, attrs, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") element.className = value;
    else if (key.startsWith("data-")) element.setAttribute(key, value);
    else element[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) element.append(child);
  }
  return element;
}

// ------------------------------------------------------------------ cards and hands
const SUITS = {s: "♠", h: "♥", d: "♦", c: "♣"};

function cardNode(card) {
  if (card === null || card === undefined) return node("span", {class: "card unread"}, "??");
  const element = /^(A|10|[2-9]|S|L|F)-(\w+)$/i.exec(card);
  if (element) {
    const name = element[2].toLowerCase();
    return node("span", {class: `card element ${name}`, "data-card": card},
                element[1].toUpperCase(), node("small", {}, ELEMENTS[language()][name] || name));
  }
  const standard = /^(10|[2-9TJQKA])([shdc])$/i.exec(card);
  if (!standard) return node("span", {class: "card", "data-card": card}, card);
  const rank = standard[1].toUpperCase() === "T" ? "10" : standard[1].toUpperCase();
  const suit = standard[2].toLowerCase();
  return node("span", {class: `card ${"hd".includes(suit) ? "red" : "black"}`, "data-card": card}, rank + SUITS[suit]);
}

function handNode(name, title, cards, total, winning) {
  return node("div", {class: `hand ${name}${winning ? " winning" : ""}`, "data-hand": name},
              node("span", {class: "hand-name"}, title),
              node("span", {class: "cards"}, ...(cards || []).map(cardNode)),
              node("span", {class: "total"}, total === null || total === undefined ? "" : String(total)));
}

function handTitle(name) {
  if (name === "player") return label("P");
  if (name === "banker") return label("B");
  if (name === "dealer") return label("dealer");
  const spot = /^spot(\d+)$/.exec(name);
  return spot ? `${label("spot")} ${spot[1]}` : name;
}

// ------------------------------------------------------------------ header and banners
function renderHeader() {
  const board = state.board || {};
  document.documentElement.lang = language();
  document.getElementById("table-name").textContent = board.table || "";
  // the title in the board's language; the server's (English) title for a game without one
  document.getElementById("game-title").textContent = (board.game && LABELS[language()]["game_" + board.game]) || board.game_title || "";
  const parts = [];
  if (board.has_roads && board.shoe !== null && board.shoe !== undefined) parts.push(`${label("shoe")} ${board.shoe}`);
  const round = state.round ? state.round.round : board.round;  // the round in progress, else the board's last
  if (round !== null && round !== undefined) parts.push(`${label("round")} ${round}`);
  document.getElementById("shoe-round").textContent = parts.join(" · ");
  const link = document.getElementById("link-state");
  const linkState = !state.connected ? "board_offline" : state.link === null ? "connecting"
    : state.link.journal_error ? "journal_problem" : state.link.online ? "online" : "offline";
  link.dataset.state = linkState;
  link.textContent = label(linkState);
  link.title = state.link && state.link.journal_error ? state.link.journal_error : "";
  document.body.dataset.link = linkState;
  for (const element of document.querySelectorAll("[data-label]")) element.textContent = label(element.dataset.label);
}

function renderBanners() {
  const offline = document.getElementById("offline-banner");
  const linkState = document.body.dataset.link;
  offline.hidden = !["offline", "journal_problem", "board_offline"].includes(linkState);
  offline.textContent = linkState === "journal_problem" ? `${label("journal_problem")}: ${state.link.journal_error}`
    : linkState === "board_offline" ? label("board_offline") : label("offline_banner");
  document.body.classList.toggle("offline", !offline.hidden);

  const banner = document.getElementById("void-banner");
  const void_ = state.board && state.board.banner;
  banner.hidden = !void_;
  banner.replaceChildren();
  if (void_) {
    banner.dataset.round = void_.round;
    banner.dataset.clause = void_.clause || "";
    banner.append(node("strong", {}, label(void_.after_result ? "void_taken_off" : "void_round", {round: void_.round})),
                  node("span", {class: "clause"}, void_.clause || ""),
                  node("span", {class: "reason"}, void_.reason || ""));
  }
}

// ------------------------------------------------------------------ baccarat
const SMALLEST_DERIVED_CELL = 16;  // px: narrower marks are unreadable; the road keeps its latest columns

function renderRoads() {
  const board = state.board;
  drawRoad(document.getElementById("big-road"), board.big_road, drawBigRoadCell);
  drawRoad(document.getElementById("bead-plate"), board.bead_plate, beadDrawer(label));
  for (const [road, id] of [["big_eye_boy", "big-eye-boy"], ["small_road", "small-road"], ["cockroach_pig", "cockroach-pig"]]) {
    drawRoad(document.getElementById(id), board[road], derivedDrawer(road), SMALLEST_DERIVED_CELL);
  }
}

function renderAsk() {
  const rows = ["B", "P"].map((side) => node("div", {class: `ask-row ${side === "B" ? "banker" : "player"}`, "data-side": side},
    node("span", {class: "ask-side"}, label(side)),
    ...["big_eye_boy", "small_road", "cockroach_pig"].map((road) => askMark(road, state.board.ask[side][road]))));
  document.getElementById("ask").replaceChildren(...rows);
}

function countNode(key, value, extraClass) {
  return node("div", {class: `count ${extraClass || ""}`, "data-count": key},
              node("span", {class: "count-name"}, label(key)), node("span", {class: "count-value"}, String(value)));
}

function renderCounts() {
  const board = state.board;
  const counts = board.counts;
  const items = [countNode("B", counts.B, "banker"), countNode("P", counts.P, "player"), countNode("T", counts.T, "tie"),
                 countNode("banker_pair", counts.banker_pair, "banker"), countNode("player_pair", counts.player_pair, "player")];
  for (const [key, value] of Object.entries(board.game_counts || {})) items.push(countNode(key, value, "game"));
  items.push(countNode("rounds", counts.B + counts.P + counts.T, "total"));
  document.getElementById("counts").replaceChildren(...items);
  const notes = [];
  if (board.shoe_finished) notes.push(node("div", {class: "note"}, label("shoe_finished")));
  else if (board.cut_card) notes.push(node("div", {class: "note"}, label("cut_card")));
  document.getElementById("counts").append(...notes);
}

function resultHeadline(result) {
  const winner = {banker: "B", player: "P", tie: "T"}[result.winner];
  const text = winner === "T" ? label("tie_result") : `${label(winner)} ${label("wins")}`;
  return node("div", {class: `headline ${result.winner}`, "data-winner": result.winner},
              node("span", {class: "round-no"}, `${label("round")} ${result.round}`), text);
}

function resultTags(result) {
  const tags = [];
  if (result.natural) tags.push("natural");
  if (result.banker_pair) tags.push("banker_pair");
  if (result.player_pair) tags.push("player_pair");
  tags.push(...(result.events || []));
  return node("div", {class: "tags"}, ...tags.map((tag) => node("span", {class: "tag", "data-tag": tag}, label(tag))));
}

function renderLastResult() {
  const result = state.board.last_result;
  const target = document.getElementById("last-result");
  if (!result) { target.replaceChildren(); return; }
  target.replaceChildren(resultHeadline(result),
    ...["player", "banker"].map((name) => handNode(name, label(name === "player" ? "P" : "B"),
      result.hands[name].cards, result.hands[name].total, result.winner === name)),
    resultTags(result));
}

function renderLive(targetId) {
  const target = document.getElementById(targetId);
  const round = state.round;
  if (!round) { target.replaceChildren(node("div", {class: "state"}, label("no_round"))); return; }
  const stateText = node("div", {class: `state ${round.state}`, "data-state": round.state},
                         node("span", {class: "round-no"}, `${label("round")} ${round.round}`), label("state_" + round.state));
  const children = [stateText];
  if (round.hold) children.push(node("div", {class: "hold"}, node("span", {class: "clause"}, round.hold.clause || ""),
                                     node("span", {class: "reason"}, round.hold.detail || "")));
  if (round.void) children.push(node("div", {class: "hold void"}, node("span", {class: "clause"}, round.void.clause || ""),
                                     node("span", {class: "reason"}, round.void.reason || "")));
  const winner = round.result && round.result.winner;
  for (const [name, cards] of Object.entries(round.hands || {})) {
    const total = round.totals ? round.totals[name] : null;
    children.push(handNode(name, handTitle(name), cards, total, winner === name));
  }
  target.replaceChildren(...children);
}

// ------------------------------------------------------------------ Fu Bacc, Pai Gow
function compactHand(name, title, hand) {
  const node_ = handNode(name, title, (hand || {}).cards, (hand || {}).total);
  node_.classList.add("compact");
  return node_;
}

function bonusTags(detail, mainWager) {
  // the spot's other winning wagers (Lucky Monkey, Tie, Fortune Bonus ...) with what they pay
  const won = Object.entries(detail.bets || {}).filter(([key, bet]) => key !== mainWager && bet.result === "win");
  return node("div", {class: "tags"}, ...won.map(([key, bet]) => node("span", {class: "tag", "data-tag": key},
    `${label(key) === key ? key.replace(/_/g, " ") : label(key)} ${bet.pays || ""}`.trim())));
}

function spotResultNode(spot, detail, mainWager) {
  const hands = detail.low
    ? [compactHand(`spot${spot}-high`, label("high"), detail.high), compactHand(`spot${spot}-low`, label("low"), detail.low)]
    : [compactHand(`spot${spot}`, "", detail.hand)];
  return node("div", {class: `spot-result ${detail.main || ""}`, "data-spot": spot, "data-main": detail.main || ""},
              node("span", {class: "spot-name"}, `${label("spot")} ${spot}`),
              node("span", {class: "spot-main"}, label(detail.main || "")),
              node("span", {class: "decision"}, detail.decision || ""),
              node("div", {class: "spot-hands"}, ...hands, bonusTags(detail, mainWager)));
}

function renderSpotResult() {
  const result = state.board.last_result;
  const target = document.getElementById("spot-result");
  if (!result) { target.replaceChildren(); return; }
  const dealer = result.dealer ? compactHand("dealer", label("dealer"), result.dealer) : null;
  target.replaceChildren(node("div", {class: "headline"}, `${label("round")} ${result.round}`), dealer,
                         ...Object.entries(result.spots).map(([spot, detail]) => spotResultNode(spot, detail, result.main_wager)));
}

function renderHistory() {
  const rows = [...state.board.history].reverse().map((entry) => {
    if (entry.void) {
      return node("tr", {class: "void", "data-round": entry.round}, node("td", {}, String(entry.round)),
                  node("td", {colSpan: 2}, `${label("void")} · ${entry.void.clause || ""} · ${entry.void.reason || ""}`));
    }
    const spots = Object.entries(entry.spots).map(([spot, detail]) =>
      node("span", {class: `spot-mark ${detail.main || ""}`, "data-spot": spot}, `${spot} ${label(detail.main || "")}`));
    return node("tr", {"data-round": entry.round}, node("td", {}, String(entry.round)),
                node("td", {}, entry.dealer ? String(entry.dealer.total) : ""), node("td", {}, ...spots));
  });
  document.getElementById("history").replaceChildren(node("table", {}, node("tbody", {}, ...rows)));
}

// ------------------------------------------------------------------ putting it together
function render(changed) {
  renderHeader();
  renderBanners();
  if (!state.board) return;
  const roads = state.board.has_roads;
  document.getElementById("baccarat").hidden = !roads;
  document.getElementById("spots").hidden = roads;
  if (roads) {
    if (changed.board) { renderRoads(); renderAsk(); renderCounts(); renderLastResult(); }
    if (changed.round) renderLive("live");
  } else {
    if (changed.board) { renderSpotResult(); renderHistory(); }
    if (changed.round) renderLive("spot-live");
  }
}

function painted(update, received) {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const at = update.at ? Date.parse(update.at.slice(0, 23) + "Z") : null;
    window.boardTimings.push({seq: update.seq, kind: update.kind, at, received, drawn: Date.now()});
    if (window.boardTimings.length > TIMINGS_KEPT) window.boardTimings.shift();
  }));
}

const source = new EventSource("/events");
source.addEventListener("update", (event) => {
  const received = Date.now();
  const update = JSON.parse(event.data);
  if ("board" in update) state.board = update.board;
  if ("round" in update) state.round = update.round;
  document.body.classList.remove("connecting");
  render({board: "board" in update, round: "round" in update});
  document.body.dataset.seq = update.seq;
  painted(update, received);
});
source.addEventListener("link", (event) => {
  state.link = JSON.parse(event.data);
  render({});
});
source.addEventListener("open", () => { state.connected = true; render({}); });
source.addEventListener("error", () => { state.connected = false; render({}); });
window.addEventListener("resize", () => render({board: true, round: true}));
