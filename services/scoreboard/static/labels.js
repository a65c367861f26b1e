// The board's words in English and Traditional Chinese, the games' titles (game_<key>) included. The language comes from the server
// (config scoreboard.lang or --lang) unless the page is opened with ?lang=en or ?lang=zh-Hant.
// Each game's own counts are labelled by the game (its table profile), in /game-labels.js.
"use strict";

const LABELS = {
  "en": {
    B: "Banker", P: "Player", T: "Tie", bead_B: "B", bead_P: "P", bead_T: "T",
    banker_pair: "Banker pair", player_pair: "Player pair", naturals: "Naturals", natural: "Natural",
    big_road: "Big Road", bead_plate: "Bead Plate", big_eye_boy: "Big Eye Boy", small_road: "Small Road",
    cockroach_pig: "Cockroach Pig", ask_road: "Ask Road", counts: "Counts", rounds: "Rounds",
    last_result: "Last result", in_progress: "Round in progress", last_round: "Last round", recent_rounds: "Recent rounds",
    shoe: "Shoe", round: "Round", wins: "wins", tie_result: "Tie",
    online: "Table online", offline: "Table offline", connecting: "Connecting…",
    board_offline: "Scoreboard reconnecting…",
    offline_banner: "Table offline — the board shows the last state the table journaled",
    journal_problem: "Journal unreadable",
    state_betting: "Place your bets", state_dealing: "Dealing", state_held: "Held", state_decided: "Result",
    state_settled: "Settled", state_void: "Void", no_round: "No round yet",
    void_round: "Round {round} void", void_taken_off: "Round {round}'s result is void and taken off the roads",
    cut_card: "Cut card out: last rounds of the shoe", shoe_finished: "Shoe finished",
    dealer: "Dealer", spot: "Spot", win: "Win", lose: "Lose", push: "Push", void: "Void",
    high: "High", low: "Low", decision: "Decision", ask_none: "–",
    game_fortune6: "Fortune Six Baccarat Tournament", game_fortune7: "Fortune 7 Baccarat",
    game_fafa4: "Fa Fa Fabulous 4 Baccarat", game_fubacc: "Fu Bacc", game_paigow: "Fortune Pai Gow Poker",
  },
  "zh-Hant": {
    B: "莊", P: "閒", T: "和", bead_B: "莊", bead_P: "閒", bead_T: "和",
    banker_pair: "莊對", player_pair: "閒對", naturals: "例牌", natural: "例牌",
    big_road: "大路", bead_plate: "珠盤路", big_eye_boy: "大眼仔", small_road: "小路",
    cockroach_pig: "曱甴路", ask_road: "問路", counts: "統計", rounds: "局數",
    last_result: "上局結果", in_progress: "本局", last_round: "上局", recent_rounds: "近局",
    shoe: "靴", round: "局", wins: "勝", tie_result: "和局",
    online: "枱面在線", offline: "枱面離線", connecting: "連線中…",
    board_offline: "路單重新連線中…",
    offline_banner: "枱面離線 — 顯示最後記錄的狀態",
    journal_problem: "記錄無法讀取",
    state_betting: "請下注", state_dealing: "派牌中", state_held: "暫停", state_decided: "結果",
    state_settled: "已結算", state_void: "無效", no_round: "尚未開局",
    void_round: "第 {round} 局無效", void_taken_off: "第 {round} 局結果無效，已從路單移除",
    cut_card: "切牌已出：本靴最後數局", shoe_finished: "本靴完結",
    dealer: "莊家", spot: "位", win: "贏", lose: "輸", push: "和", void: "無效",
    high: "大牌", low: "小牌", decision: "決定", ask_none: "–",
    game_fortune6: "幸運六百家樂錦標賽", game_fortune7: "幸運七百家樂",
    game_fafa4: "發發4 百家樂", game_fubacc: "福百家樂", game_paigow: "幸運牌九撲克",
  },
};

const ELEMENTS = {
  "en": {fire: "Fire", gold: "Gold", earth: "Earth", wood: "Wood", water: "Water"},
  "zh-Hant": {fire: "火", gold: "金", earth: "土", wood: "木", water: "水"},
};
