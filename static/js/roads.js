/* The scoreboard roads in the browser: a port of baccarat/roads.py, `roads(results).as_data()`.
 *
 * It mirrors the Python function for function (lay_out, bead_plate, big_road, derived_colours,
 * derived_road, tally, roads) and answers the same plain data, so that the display
 * (static/js/display.js) draws the roads from the results it holds. The rules themselves are
 * written in baccarat/roads.py's docstring; change both files together:
 * tests/pages/test_roads_js.py runs this one in Chromium and compares it with the Python on the
 * known-answer shoes of tests/rules/test_roads.py and a few hundred random shoes.
 *
 * A result is a plain object with the fields of baccarat.roads.Result: `winner` ("banker",
 * "player" or "tie"), `player_pair`, `banker_pair`, `natural` (booleans, false when missing),
 * `player_total`, `banker_total` (numbers, or null when missing). Other fields are ignored.
 *
 *   Roads.roads(results) -> {rows, bead_plate, big_road: {leading_ties, cells}, big_eye_boy,
 *                            small_road, cockroach_pig, counts}
 */
(function () {
  "use strict";

  var ROWS = 6; // every road is this many cells high
  var CYCLES = { big_eye_boy: 1, small_road: 2, cockroach_pig: 3 };

  function orNull(value) {
    return value === undefined || value === null ? null : value;
  }

  /* Where each cell of each streak goes: down from the top, turning right at the bottom or above
     a cell already taken, each streak starting one column right of the previous start.
     Returns one list of [col, row] per streak. */
  function layOut(streaks, rows) {
    var taken = new Set();
    var placed = [];
    var start = -1;
    streaks.forEach(function (length) {
      start += 1;
      while (taken.has(start + ",0")) start += 1;
      var col = start;
      var row = 0;
      var turned = false;
      var cells = [[col, row]];
      for (var i = 0; i < length - 1; i++) {
        if (!turned && row + 1 < rows && !taken.has(col + "," + (row + 1))) {
          row += 1;
        } else {
          turned = true;
          col += 1;
        }
        cells.push([col, row]);
      }
      cells.forEach(function (xy) { taken.add(xy[0] + "," + xy[1]); });
      placed.push(cells);
    });
    return placed;
  }

  /* Every result, column by column. */
  function beadPlate(results, rows) {
    return results.map(function (r, i) {
      return {
        col: Math.floor(i / rows),
        row: i % rows,
        winner: r.winner,
        player_pair: Boolean(r.player_pair),
        banker_pair: Boolean(r.banker_pair),
        natural: Boolean(r.natural),
        player_total: orNull(r.player_total),
        banker_total: orNull(r.banker_total),
      };
    });
  }

  /* Banker and Player wins in streaks, ties counted on the win before them. The cells carry
     `streak` and `depth` here (as BigRoadCell does); `asData` leaves them out. */
  function bigRoad(results, rows) {
    var leadingTies = 0;
    var wins = [];
    var ties = [];
    var streaks = [];
    results.forEach(function (result) {
      if (result.winner === "tie") {
        if (ties.length) ties[ties.length - 1] += 1;
        else leadingTies += 1;
        return;
      }
      if (wins.length && wins[wins.length - 1].winner === result.winner) {
        streaks[streaks.length - 1] += 1;
      } else {
        streaks.push(1);
      }
      wins.push(result);
      ties.push(0);
    });
    var cells = [];
    var won = 0;
    layOut(streaks, rows).forEach(function (coordinates, streak) {
      coordinates.forEach(function (xy, depth) {
        var result = wins[won];
        cells.push({
          col: xy[0],
          row: xy[1],
          winner: result.winner,
          ties: ties[won],
          player_pair: Boolean(result.player_pair),
          banker_pair: Boolean(result.banker_pair),
          streak: streak,
          depth: depth,
        });
        won += 1;
      });
    });
    return { leading_ties: leadingTies, cells: cells, streaks: streaks };
  }

  /* The colour of each Big Road entry from the start point of the road of `cycle`. */
  function derivedColours(streaks, cycle) {
    var colours = [];
    streaks.forEach(function (length, c) { // c and depth count from 0 here
      for (var depth = 0; depth < length; depth++) {
        if (c < cycle || (c === cycle && depth === 0)) continue; // before the start point
        var red;
        if (depth === 0) {
          red = streaks[c - 1] === streaks[c - 1 - cycle];
        } else {
          red = streaks[c - cycle] !== depth; // blue: that column ended one row above
        }
        colours.push(red ? "red" : "blue");
      }
    });
    return colours;
  }

  /* The derived road of `cycle` (1, 2 or 3), laid out like the Big Road. */
  function derivedRoad(streaks, cycle, rows) {
    var colours = derivedColours(streaks, cycle);
    var runs = [];
    colours.forEach(function (colour, i) {
      if (i && colour === colours[i - 1]) runs[runs.length - 1] += 1;
      else runs.push(1);
    });
    var coordinates = [];
    layOut(runs, rows).forEach(function (run) {
      coordinates.push.apply(coordinates, run);
    });
    return colours.map(function (colour, i) {
      return { col: coordinates[i][0], row: coordinates[i][1], colour: colour };
    });
  }

  /* Count the wins of each hand, ties, pairs and Naturals. */
  function tally(results) {
    var counts = { rounds: 0, banker: 0, player: 0, tie: 0, banker_pairs: 0, player_pairs: 0, naturals: 0 };
    results.forEach(function (r) {
      if (r.winner === "banker") counts.banker += 1;
      if (r.winner === "player") counts.player += 1;
      if (r.winner === "tie") counts.tie += 1;
      if (r.banker_pair) counts.banker_pairs += 1;
      if (r.player_pair) counts.player_pairs += 1;
      if (r.natural) counts.naturals += 1;
    });
    counts.rounds = counts.banker + counts.player + counts.tie;
    return counts;
  }

  /* Every road of a shoe from its results in dealing order: `roads(results).as_data()`. */
  function roads(results) {
    var listed = Array.prototype.slice.call(results || []);
    var big = bigRoad(listed, ROWS);
    var data = {
      rows: ROWS,
      bead_plate: beadPlate(listed, ROWS),
      big_road: {
        leading_ties: big.leading_ties,
        cells: big.cells.map(function (c) {
          return {
            col: c.col, row: c.row, winner: c.winner, ties: c.ties,
            player_pair: c.player_pair, banker_pair: c.banker_pair,
          };
        }),
      },
    };
    Object.keys(CYCLES).forEach(function (name) {
      data[name] = derivedRoad(big.streaks, CYCLES[name], ROWS);
    });
    data.counts = tally(listed);
    return data;
  }

  window.Roads = {
    ROWS: ROWS,
    roads: roads,
    layOut: layOut,
    bigRoad: bigRoad,
    derivedColours: derivedColours,
  };
})();
