/* The table display (scoreboard): draws the five roads as SVG and keeps them current.
 *
 * The page embeds the roads (`#board-data`, the document of /display/<id>/roads.json). Each road
 * is a grid 6 cells high; cells arrive with their (col, row) and are drawn as they come. The grid
 * shows as many columns as fit at the height of its box, scrolled so the newest column shows.
 * It fetches the roads again when `Live.watch` says the table changed in a way the board shows
 * (static/js/live.js): not for a wager, "no more bets" or a card, which the roads do not show
 * until the round is settled; always after a gap or a reconnect. Every 5 seconds while that
 * script is not on the page or its socket is down. The dot at the
 * top right is green while the last fetch succeeded, amber while the server cannot be reached.
 * Requests go through http.js.
 */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var UNIT = 10; // one cell is 10 × 10 in SVG units; shapes are centred on (5, 5)
  var POLL_MS = 5000;
  var COLOUR = {
    banker: "#c8102e",
    player: "#1746c9",
    tie: "#12843f",
    red: "#c8102e",
    blue: "#1746c9",
    natural: "#f2b705",
  };
  var LETTER = { banker: "B", player: "P", tie: "T" };

  var body = document.body;
  var board = JSON.parse(document.getElementById("board-data").textContent);

  function node(name, attrs, parent) {
    var el = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (key) {
      el.setAttribute(key, attrs[key]);
    });
    if (parent) parent.appendChild(el);
    return el;
  }

  function pairs(g, cell) {
    var halo = { stroke: "#fff", "stroke-width": 0.6 };
    if (cell.banker_pair) {
      node("circle", Object.assign({ class: "pair banker-pair", cx: 1.9, cy: 1.9, r: 1.5, fill: COLOUR.banker }, halo), g);
    }
    if (cell.player_pair) {
      node("circle", Object.assign({ class: "pair player-pair", cx: 8.1, cy: 8.1, r: 1.5, fill: COLOUR.player }, halo), g);
    }
  }

  function tieMark(g, count) {
    node("line", { class: "tie-mark", x1: 1.4, y1: 8.6, x2: 8.6, y2: 1.4, stroke: COLOUR.tie, "stroke-width": 1.3, "stroke-linecap": "round" }, g);
    if (count > 1) {
      var text = node("text", { class: "tie-count", x: 5, y: 5.2, fill: COLOUR.tie }, g);
      text.textContent = String(count);
    }
  }

  // How each road draws one cell, inside a 10 × 10 group.
  var DRAW = {
    bead_plate: function (g, cell) {
      node("circle", { cx: 5, cy: 5, r: 4.2, fill: COLOUR[cell.winner] }, g);
      var text = node("text", { class: "bead-letter", x: 5, y: 5.3, fill: "#fff" }, g);
      text.textContent = LETTER[cell.winner];
      pairs(g, cell);
      if (cell.natural) {
        node("circle", { class: "natural", cx: 8.1, cy: 1.9, r: 1.5, fill: COLOUR.natural, stroke: "#fff", "stroke-width": 0.6 }, g);
      }
    },
    big_road: function (g, cell) {
      node("circle", { cx: 5, cy: 5, r: 3.7, fill: "none", stroke: COLOUR[cell.winner], "stroke-width": 1.3 }, g);
      pairs(g, cell);
      if (cell.ties) tieMark(g, cell.ties);
    },
    big_eye_boy: function (g, cell) {
      node("circle", { cx: 5, cy: 5, r: 3.5, fill: "none", stroke: COLOUR[cell.colour], "stroke-width": 1.6 }, g);
    },
    small_road: function (g, cell) {
      node("circle", { cx: 5, cy: 5, r: 3.9, fill: COLOUR[cell.colour] }, g);
    },
    cockroach_pig: function (g, cell) {
      node("line", { x1: 2, y1: 8, x2: 8, y2: 2, stroke: COLOUR[cell.colour], "stroke-width": 1.9, "stroke-linecap": "round" }, g);
    },
  };

  function cellsOf(name) {
    var road = board.roads[name];
    return name === "big_road" ? road.cells : road;
  }

  function drawRoad(svg) {
    var name = svg.dataset.road;
    var rows = board.roads.rows;
    var cells = cellsOf(name);
    var box = svg.getBoundingClientRect();
    var size = box.height / rows;
    var cols = Math.max(1, Math.floor(box.width / size));
    var last = cells.reduce(function (most, c) { return Math.max(most, c.col); }, -1);
    var first = Math.max(0, last + 2 - cols); // keep a free column after the newest
    var width = cols * UNIT;
    var height = rows * UNIT;

    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    svg.setAttribute("preserveAspectRatio", "xMinYMin meet");
    svg.dataset.cells = String(cells.length);

    var lines = [];
    for (var x = 0; x <= cols; x++) lines.push("M" + x * UNIT + " 0V" + height);
    for (var y = 0; y <= rows; y++) lines.push("M0 " + y * UNIT + "H" + width);
    node("path", { class: "grid", d: lines.join("") }, svg);

    var drawn = node("g", { class: "cells" }, svg);
    cells.forEach(function (cell) {
      if (cell.col < first || cell.col >= first + cols) return;
      var g = node("g", {
        class: "cell",
        transform: "translate(" + (cell.col - first) * UNIT + " " + cell.row * UNIT + ")",
        "data-col": cell.col,
        "data-row": cell.row,
      }, drawn);
      DRAW[name](g, cell);
    });

    // Ties before the first win: a tie mark on the first cell of the Big Road.
    var leading = name === "big_road" ? board.roads.big_road.leading_ties : 0;
    if (leading && first === 0) {
      var own = cells.length ? cells[0].ties : 0;
      var g = node("g", { class: "leading-ties" }, drawn);
      tieMark(g, leading + own);
    }
  }

  function draw() {
    document.querySelectorAll("svg[data-road]").forEach(drawRoad);
    var counts = board.roads.counts;
    document.querySelectorAll("[data-count]").forEach(function (el) {
      el.textContent = String(counts[el.dataset.count]);
    });
    document.querySelector("[data-shoe]").textContent = board.shoe === null ? "–" : String(board.shoe);
  }

  function status(fresh) {
    var el = document.querySelector("[data-status]");
    el.classList.toggle("stale", !fresh);
    el.title = fresh ? "Up to date" : "Reconnecting…";
  }

  var pending = null;
  function refresh() {
    if (pending) return pending;
    pending = window.Http.getJSON(body.dataset.roadsUrl).then(function (answer) {
      pending = null;
      if (answer.loggedOut) {
        window.location.reload(); // the page sends this screen to the login form
      } else if (answer.ok) {
        board = answer.data;
        draw();
        status(true);
      } else {
        status(false);
      }
    });
    return pending;
  }

  var resizing = 0;
  window.addEventListener("resize", function () {
    cancelAnimationFrame(resizing);
    resizing = requestAnimationFrame(draw);
  });

  var polling = 0;
  function poll(on) {
    if (on && !polling) polling = window.setInterval(refresh, POLL_MS);
    if (!on && polling) polling = window.clearInterval(polling) || 0;
  }

  // Live's socket: "open" (notices arrive), "closed" (it retries; poll meanwhile) or "refused"
  // (final, e.g. logged out: reloading sends this screen to the login form).
  function liveStatus(state) {
    if (state === "refused") window.location.reload();
    poll(state !== "open");
  }

  // Changes the board does not show: the roads are of settled rounds.
  var UNSEEN = {
    wager_placed: true, wager_changed: true, wager_withdrawn: true, no_more_bets: true,
    card_dealt: true, cards_relinquished: true, player_dealer_bank: true, player_seated: true,
  };

  function shows(detail) {
    return window.Live.matters(detail, function (e) { return !UNSEEN[e.action]; });
  }

  draw();
  if (window.Live && typeof window.Live.watch === "function") {
    window.Live.watch(Number(body.dataset.table), function (table, detail) {
      if (shows(detail)) refresh();
    }, { onStatus: liveStatus });
  } else {
    poll(true);
  }
  window.Scoreboard = { refresh: refresh };
})();
