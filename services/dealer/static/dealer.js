// The dealer page: draws /events' `desk` (services/dealer/desk.py) as it comes. Every text
// is set with textContent: nothing from the journal is read as HTML.
"use strict";

const STATES = {
  waiting: "Waiting for a round", betting: "Place your bets", dealing: "No more bets",
  result: "Pay the result", settled: "Settled", void: "Void",
};
const KINDS = { mispay: "Mispay", foreign_chip: "Foreign chip", late_wager: "Late wager", wager_removed: "Wager removed" };
const RESULTS = { win: "Win", lose: "Lose", push: "Push" };
const STEPS = { paid: "Paid", collected: "Collected", returned: "Returned" };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === "class") node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child == null ? "" : String(child));
  return node;
}

function byId(id) { return document.getElementById(id); }

function seatWord(desk) { return desk.seat_word === "spot" ? "Spot" : "Seat"; }

function space(desk, entry) { return `${seatWord(desk)} ${entry.seat} ${entry.title || entry.bet}`; }

function alertText(desk, alert) {
  if (alert.kind === "mispay") {
    // the record's difference is found less expected (negative when under): the direction says which way
    const by = alert.difference != null ? ` by ${String(alert.difference).replace(/^-/, "")}` : "";
    return `${space(desk, alert)}: must stand ${alert.expected}, found ${alert.found}, ${alert.direction}${by}`;
  }
  if (alert.kind === "foreign_chip") {
    const where = alert.seat != null ? space(desk, alert) : "a space";
    const spaceNo = alert.space != null ? ` (space ${alert.space})` : "";
    return `${where}${spaceNo}: chip ${alert.uid}, value ${alert.value} (${alert.why})`;
  }
  const where = alert.seat != null ? space(desk, alert) : "";
  const change = alert.frozen != null ? `: frozen ${alert.frozen}, now ${alert.now}` : "";
  return `${where}${change}` || alert.detail || "";
}

function clearedText(desk) {
  const cleared = desk.cleared;
  if (!cleared) return "";
  return cleared.by === "payouts_accepted" ? `accepted as it stands by ${cleared.who}` : "cleared: the round was confirmed";
}

function feeText(desk, line) {
  if (line.space == null) return `Player-dealer (${seatWord(desk)} ${line.seat}): ${line.fee}`;
  const who = line.bettor === "seat" ? "" : ` ${line.bettor}`;
  return `${seatWord(desk)} ${line.seat}${who} ${line.title || line.space}: ${line.fee}`;
}

// A table banked by a player-dealer: who banks with what, the fees taken before the deal,
// then the bank's walk over the wagers, where it was exhausted, its net and what must stand on its space.
function renderBank(desk, mispaid) {
  const pd = desk.player_dealer;
  byId("bank-panel").hidden = !pd;
  if (!pd) return;
  byId("bank-holder").textContent = `${seatWord(desk)} ${pd.seat} banks ${pd.stake}`;
  const fees = desk.fees;
  byId("fees-title").textContent = desk.fees_returned ? "Fees returned (the round is void)" : "Fees taken before the deal";
  byId("fees").replaceChildren(...(fees ? fees.lines.map((line) => el("li", { "data-seat": line.seat,
    "data-space": line.space ?? "player_dealer" }, feeText(desk, line))) : []));
  byId("fees-total").textContent = fees
    ? `Total ${fees.total} · table action ${fees.table_action} · collection schedule option ${fees.option}` : "";
  const bank = desk.bank;
  const walk = byId("bank-walk");
  walk.hidden = !bank;
  if (bank) walk.textContent = `Bank ${[bank.start, ...desk.payouts.map((p) => p.bank_after)].join(" → ")}`;
  const exhausted = byId("bank-exhausted");
  const by = bank && bank.exhausted_at != null ? desk.payouts[bank.exhausted_at] : null;
  exhausted.hidden = !by;
  if (by) exhausted.textContent = `Bank exhausted by ${space(desk, by)}: every later wager returned untouched (ruling 26)`;
  const net = byId("bank-net");
  net.hidden = pd.back == null;
  if (pd.back != null) {
    const mispay = mispaid.get(`${pd.seat}/bank`);
    net.replaceChildren(el("span", {}, `Player-dealer net ${pd.net} · fee ${pd.fee} · must stand on the bank's space `),
      el("span", { id: "bank-back", class: mispay ? "back mispay" : "back" }, pd.back),
      mispay ? el("span", { class: "found" }, ` found ${mispay.found} (${mispay.direction})`) : "");
  }
}

function render(desk) {
  byId("game-title").textContent = desk.game_title || "";
  byId("round-number").textContent = desk.round != null ? `Round ${desk.round}` : "";
  byId("round-state").textContent = STATES[desk.state] || desk.state;
  document.body.dataset.state = desk.state;
  const check = byId("payout-check");
  check.dataset.checked = String(desk.payout_check);
  check.textContent = desk.payout_check === true ? "Payouts checked by the bet sensor"
    : desk.payout_check === false ? "Payouts not checked: wagers given by command" : "No bet sensor seen";

  const voidBanner = byId("void-banner");
  voidBanner.hidden = !desk.void;
  if (desk.void) voidBanner.textContent = `Round ${desk.round} void · ${desk.void.clause} · ${desk.void.reason}` +
    (desk.payouts.length ? " · return every stake" : "") +
    (desk.fees_returned ? ", every fee and the bank's stake" : "");

  const problems = byId("problems");
  problems.hidden = !desk.problems.length;
  problems.textContent = desk.problems.length ? `Records that could not be read: ${desk.problems.join(" · ")}` : "";

  const alerts = byId("alerts");
  const open = desk.alerts.filter((a) => a.open);
  alerts.replaceChildren(...open.map((a) => {
    const card = el("div", { class: "alert open", "data-kind": a.kind, "data-seq": a.seq });
    card.append(el("span", { class: "kind" }, KINDS[a.kind] || a.kind), el("span", { class: "what" }, alertText(desk, a)));
    if (a.clause) card.append(el("span", { class: "clause" }, a.clause));
    return card;
  }));
  alerts.hidden = !open.length;

  const mispaid = new Map(open.filter((a) => a.kind === "mispay").map((a) => [`${a.seat}/${a.bet}`, a]));
  const payoutRows = desk.payouts.map((p) => {
    const mispay = mispaid.get(`${p.seat}/${p.bet}`);
    const row = el("tr", { class: p.outcome + (mispay ? " mispay" : ""), "data-seat": p.seat, "data-bet": p.bet });
    const back = el("td", { class: "amount back" }, p.back);
    if (mispay) back.setAttribute("data-found", `found ${mispay.found} (${mispay.direction})`);
    if (p.step) row.dataset.step = p.step;
    if (p.exhausted) row.classList.add("exhausted");
    if (p.untouched) row.classList.add("untouched");
    const bet = p.bettor && p.bettor !== "seat" ? `${p.title || p.bet} (${p.bettor})` : p.title || p.bet;
    row.append(el("td", { class: "seat" }, p.seat), el("td", { class: "bet" }, bet),
      el("td", { class: "amount stake" }, p.stake), el("td", { class: "house result" }, RESULTS[p.outcome] || p.outcome),
      el("td", { class: "banked step" }, STEPS[p.step] || p.step || ""), el("td", { class: "amount banked covered" }, p.covered ?? ""),
      el("td", { class: "amount banked returned" }, p.returned ?? ""), el("td", { class: "amount banked fee" }, p.fee ?? ""),
      el("td", { class: "amount banked bank-after" }, p.bank_after ?? ""),
      el("td", { class: "amount net" }, p.net), back, el("td", { class: "amount house commission" }, p.commission));
    return row;
  });
  byId("payouts").tBodies[0].replaceChildren(...payoutRows);
  byId("payouts").classList.toggle("banked", !!desk.player_dealer);
  renderBank(desk, mispaid);
  byId("house-net").textContent = desk.house_net ?? "";
  byId("payouts-panel").hidden = !desk.payouts.length;
  for (const th of document.querySelectorAll("th.seat")) th.textContent = seatWord(desk);

  byId("wagers").tBodies[0].replaceChildren(...desk.wagers.map((w) => {
    const row = el("tr", { "data-seat": w.seat, "data-bet": w.bet });
    row.append(el("td", { class: "seat" }, w.seat), el("td", { class: "bet" }, w.title || w.bet),
      el("td", { class: "amount stake" }, w.stake), el("td", { class: "amount chips" }, w.chips ?? "—"));
    return row;
  }));
  byId("wagers-panel").hidden = desk.payouts.length > 0;
  const none = byId("no-wagers");
  none.hidden = desk.wagers.length > 0;
  none.textContent = desk.wager_source == null ? "The wagers are frozen at no more bets." : "No wagers this round.";

  byId("refused").replaceChildren(...desk.refused.map((r) =>
    el("li", { "data-seat": r.seat, "data-bet": r.bet },
      `${space(desk, r)} ${r.stake}: ${r.reason}` + (r.clause ? ` (${r.clause})` : ""))));
  byId("refused-panel").hidden = !desk.refused.length;

  const closed = desk.alerts.filter((a) => !a.open);
  const cleared = closed.map((a) => el("li", { "data-kind": a.kind },
    `${KINDS[a.kind] || a.kind} · ${alertText(desk, a)} · ${clearedText(desk) || "superseded by a later reading"}`));
  for (const accepted of desk.accepted) {
    const differences = accepted.differences.map((d) => `${seatWord(desk)} ${d.seat} ${d.bet} expected ${d.expected} found ${d.found}`);
    cleared.push(el("li", { class: "accepted" }, `Accepted as they stand by ${accepted.who}` +
      (differences.length ? `: ${differences.join(" · ")}` : "")));
  }
  byId("cleared").replaceChildren(...cleared);
  byId("cleared-panel").hidden = !cleared.length;
}

function showLink(link) {
  const state = !link ? "connecting" : link.journal_error ? "offline" : link.online ? "online" : "offline";
  const words = { connecting: "Connecting…", online: "Table online", offline: link && link.journal_error
    ? "Journal unreadable" : "Table offline", reconnecting: "Dealer page reconnecting…" };
  byId("link-state").dataset.state = state;
  byId("link-state").textContent = words[state];
  const banner = byId("offline-banner");
  banner.hidden = state !== "offline";
  banner.textContent = link && link.journal_error ? `Journal unreadable: ${link.journal_error}`
    : "Table offline: the daemon's event stream is gone; the page shows the last it read";
  document.body.className = state;
  document.body.dataset.link = state;
}

function connect() {
  const source = new EventSource("/events");
  source.addEventListener("update", (event) => {
    const data = JSON.parse(event.data);
    if (data.desk) render(data.desk);
  });
  source.addEventListener("link", (event) => showLink(JSON.parse(event.data)));
  source.onerror = () => {
    document.body.dataset.link = "reconnecting";
    byId("link-state").dataset.state = "reconnecting";
    byId("link-state").textContent = "Dealer page reconnecting…";
  };
}

connect();
