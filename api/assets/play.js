// The play page: replays the game on the server after every action and draws the position.
// Holes are [data-hole="ROW,HOLE"], points [data-point="d5"]; legal targets get data-legal.
(function () {
  "use strict";
  const cfg = JSON.parse(document.getElementById("play-config").textContent);
  const api = "/api/v1/rulesets/" + encodeURIComponent(cfg.ruleset);
  const $ = (id) => document.getElementById(id);
  let actions = Array.isArray(cfg.moves) ? cfg.moves.slice() : [];
  let out = null; // the last replay: {states, events, result}
  let at = 0; // the position shown: out.states[at]
  let from = null; // a morris stone chosen to move
  let busy = false;
  let seed = Math.floor(Math.random() * 1e9);
  let focusName = null; // the hole or point the keyboard last focused

  // The board as drawn and, for a sowing board, the same board turned (rows as columns):
  // the turned one is shown when the other's holes would be narrower than 32 px.
  const wideSvg = $("board").querySelector("svg");
  const turnedTpl = $("board-turned");
  const turnedSvg = turnedTpl ? document.importNode(turnedTpl.content.firstElementChild, true) : null;
  function orient() {
    if (!turnedSvg || !wideSvg) return;
    const vb = wideSvg.viewBox.baseVal.width || 1;
    const want = $("board").clientWidth < vb * 32 / 44 ? turnedSvg : wideSvg;
    if ($("board").firstElementChild === want) return;
    const hadFocus = $("board").contains(document.activeElement);
    $("board").replaceChildren(want);
    if (out) draw();
    if (hadFocus) focusCell();
  }
  orient();
  window.addEventListener("resize", orient);

  const targets = (a) => {
    if (typeof a === "string") return [];
    const k = Object.keys(a)[0];
    const v = a[k];
    if (k === "move") return [v[0]];
    if (k === "relay") return [];
    return [v];
  };
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const cells = () => document.querySelectorAll("[data-hole],[data-point]");
  const nameOf = (el) => el.dataset.hole || el.dataset.point;
  const cellNamed = (name) => document.querySelector('[data-hole="' + name + '"],[data-point="' + name + '"]');
  const reason = (r) => (cfg.reasons && cfg.reasons[r]) || String(r).replace(/_/g, " ");
  const words = (a) => {
    if (typeof a === "string") return a;
    const k = Object.keys(a)[0];
    const v = a[k];
    if (k === "relay") return v === "stop" ? "stop in the head" : "lift the head and sow on";
    return k + " " + (Array.isArray(v) ? v.join("–") : v);
  };

  async function post(url, body) {
    const r = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    const j = await r.json();
    if (!r.ok) throw new Error(j.detail || r.statusText);
    return j;
  }

  async function refresh(toEnd) {
    out = await post(api + "/replay", { params: cfg.params, actions: actions });
    if (toEnd || at > actions.length) at = actions.length;
    draw(toEnd);
  }

  function human(state) {
    const agent = $("agent").value;
    return !agent || state.to_move === $("seat").value;
  }

  // Sowing events are {"event": "lap", ...}; line-game events {"move": {...}}.
  function norm(ev) {
    if (ev.event) return ev;
    const k = Object.keys(ev)[0];
    return Object.assign({ event: k }, ev[k]);
  }

  function describe(raw) {
    const ev = norm(raw);
    const e = ev.event;
    switch (e) {
      case "lap": return "a lap from " + ev.from + " (" + ev.stones + " stones) ends at " + ev.last;
      case "capture": return "capture at " + ev.at + " takes " + ev.taken.map((t) => t[0] + " (" + t[1] + ")").join(", ");
      case "take": return ev.hole ? "takes " + ev.stones + " from " + ev.hole : ev.player + " takes the stone at " + ev.point;
      case "transfer": return ev.stones + " moved from " + ev.from + " to " + ev.to;
      case "remove": return ev.stones + " removed from " + ev.hole;
      case "place": return ev.player + " places at " + ev.point;
      case "cancel": return ev.player + " cancels at " + ev.point;
      case "move": return ev.player + " moves " + ev.from + "–" + ev.to;
      case "line": return ev.player + " makes a line " + (ev.points || []).join("-");
      case "pass": return (ev.player ? ev.player + " passes" : "a pass");
      case "remove_cancelled": return "the cancelled pairs are lifted from " + (ev.points || []).join(", ");
      default: return JSON.stringify(ev);
    }
  }

  // Highlights what a move did; with `step`, one event (lap, capture, take) at a time.
  let timers = [];
  function highlight(events, step) {
    timers.forEach(clearTimeout);
    timers = [];
    if (step && events.length > 1) {
      events.forEach((ev, i) => {
        timers.push(setTimeout(() => {
          for (const el of cells()) el.classList.remove("lifted", "last", "captured", "line-made");
          mark(events.slice(i, i + 1));
          if (i === events.length - 1) timers.push(setTimeout(() => mark(events), 500));
        }, 450 * i));
      });
    } else {
      mark(events);
    }
  }

  function mark(events) {
    const put = (name, cls) => {
      const el = document.querySelector('[data-hole="' + name + '"],[data-point="' + name + '"]');
      if (el) el.classList.add(cls);
    };
    for (const ev of events.map(norm)) {
      if (ev.from) put(ev.from, "lifted");
      if (ev.last) put(ev.last, "last");
      if (ev.at) put(ev.at, "last");
      if (ev.taken) ev.taken.forEach((t) => put(t[0], "captured"));
      if (ev.hole) put(ev.hole, "captured");
      if (ev.to) put(ev.to, "last");
      if (ev.point) put(ev.point, "last");
      if (ev.points) ev.points.forEach((p) => put(p, "line-made"));
    }
  }

  // Who played each side: "you" and the agent, when one plays.
  function player(p) {
    const agent = $("agent").value;
    if (!agent) return p;
    return p + (p === $("seat").value ? " (you)" : " (" + agent + ")");
  }

  // The actions before position `at` in turns: runs of actions by the same player, each
  // action with what it did.
  function turnsUpTo(n) {
    const turns = [];
    for (let k = 0; k < n; k++) {
      const who = out.states[k].to_move;
      if (turns.length === 0 || turns[turns.length - 1].who !== who) turns.push({ who: who, actions: [] });
      turns[turns.length - 1].actions.push(k);
    }
    return turns;
  }

  // Every action of the last two turns up to the position shown (the one being looked at and
  // the one before it, so both sides' last turns against an agent), each described.
  function showTurns() {
    const box = $("events");
    const shown = turnsUpTo(at).slice(-2);
    box.replaceChildren(...shown.flatMap((t) => {
      const h = document.createElement("h3");
      const n = t.actions.length;
      h.textContent = player(t.who) + (n > 1 ? ", " + n + " actions" : "");
      const ol = document.createElement("ol");
      ol.className = "turn";
      ol.dataset.player = t.who;
      for (const k of t.actions) {
        const li = document.createElement("li");
        li.dataset.action = String(k + 1);
        const evs = out.events[k] || [];
        li.textContent = "Move " + (k + 1) + ", " + words(actions[k]) + ": " + (evs.map(describe).join("; ") || "done") + ".";
        ol.appendChild(li);
      }
      return [h, ol];
    }));
  }

  function draw(step) {
    const state = out.states[at];
    const last = at === out.states.length - 1;
    const heads = {};
    for (const p of ["A", "B"]) for (const h of (state.heads || {})[p] || []) heads[h] = p;
    for (const el of cells()) {
      el.classList.remove("lifted", "last", "captured", "line-made", "selected");
      el.removeAttribute("data-legal");
      // Every hole and point is a button the keyboard reaches (one tab stop for the board,
      // arrow keys within it); those that may not be chosen now say so.
      el.setAttribute("role", "button");
      el.setAttribute("aria-disabled", "true");
      el.setAttribute("tabindex", "-1");
      if (el.dataset.hole) {
        const [row, h] = el.dataset.hole.split(",");
        const c = state.board[row][Number(h) - 1];
        el.dataset.count = c;
        el.querySelector("text.count").textContent = c;
        const head = heads[el.dataset.hole];
        el.classList.toggle("head", !!head);
        if (head) el.dataset.head = head; else delete el.dataset.head;
        el.setAttribute("aria-label", el.dataset.hole + ": " + c + (c === 1 ? " stone" : " stones") + (head ? ", " + head + "'s head" : ""));
      } else {
        const p = el.dataset.point;
        let owner = "";
        for (const k of ["A", "B", "cancelled"]) if ((state.board[k] || []).includes(p)) owner = k;
        el.dataset.owner = owner;
        el.dataset.count = owner && owner !== "cancelled" ? 1 : 0;
        el.setAttribute("class", "point " + owner);
        el.querySelector("text.count").textContent = owner;
        el.setAttribute("aria-label", p + ": " + (owner || "empty"));
      }
    }
    const events = at > 0 ? out.events[at - 1] || [] : [];
    highlight(events, step === true);
    showTurns();
    const legal = state.legal || [];
    const mine = last && !out.result.finished && human(state);
    for (const b of document.querySelectorAll("[data-choice]")) {
      b.hidden = !(mine && legal.some((a) => same(a, JSON.parse(b.dataset.choice))));
    }
    if (mine) {
      const names = new Set();
      for (const a of legal) {
        if (from && a.move && a.move[0] === from) names.add(a.move[1]);
        else if (!from) targets(a).forEach((t) => names.add(t));
      }
      if (from) names.add(from);
      for (const el of cells()) {
        if (names.has(nameOf(el))) {
          el.setAttribute("data-legal", "true");
          el.removeAttribute("aria-disabled");
        }
      }
      // A morris point, or a hole whose stones an opening moves (njombwa's one-counter start).
      const chosen = from && document.querySelector('[data-point="' + from + '"],[data-hole="' + from + '"]');
      if (chosen) chosen.classList.add("selected");
    }
    const status = $("status");
    if (last && out.result.finished) {
      const r = out.result;
      status.textContent = "Game over after " + r.turns + " turns: " + (r.winner ? r.winner + " wins" : "a draw") + ": " + reason(r.reason) + ".";
      status.dataset.finished = "true";
    } else {
      status.dataset.finished = "false";
      const asked = state.asking && state.asking.text ? state.asking.text : "";
      if (!last) status.textContent = "Looking back at move " + at + " of " + actions.length + ": " + state.to_move + " was to " + asked + ".";
      else if (mine) status.textContent = state.to_move + " to move: " + asked + ".";
      else status.textContent = state.to_move + " to move (" + $("agent").selectedOptions[0].textContent + "), thinking…";
    }
    const score = [];
    if (state.captured) score.push("Captured: A " + state.captured.A + ", B " + state.captured.B);
    if (state.hand) score.push("In hand: A " + state.hand.A + ", B " + state.hand.B);
    $("score").textContent = score.join(" · ");
    $("position").textContent = at + " / " + actions.length;
    $("back").disabled = at === 0;
    $("to-start").disabled = at === 0;
    $("forward").disabled = last;
    $("to-end").disabled = last;
    const list = $("moves");
    list.replaceChildren(...actions.map((a, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = words(a);
      b.className = "move" + (i + 1 === at ? " current" : "");
      b.addEventListener("click", () => { at = i + 1; from = null; draw(); });
      li.appendChild(b);
      return li;
    }));
    // The board's one tab stop: the hole last focused, else the first that may be chosen.
    const stop = (focusName && cellNamed(focusName)) || document.querySelector("[data-legal]") || cells()[0];
    if (stop) stop.setAttribute("tabindex", "0");
    $("link").href = location.pathname + "?" + new URLSearchParams(Object.assign({}, cfg.params, { moves: JSON.stringify(actions) }));
  }

  function maybeAgent() {
    if (!out || busy) return;
    const last = at === out.states.length - 1;
    if (last && !out.result.finished && !human(out.states[at])) agentMove();
  }

  // Says the last action and what it did through the live region (both sides' moves).
  function announce() {
    const k = actions.length - 1;
    if (k < 0 || !out) return;
    const evs = out.events[k] || [];
    $("announce").textContent = "Move " + (k + 1) + ", " + out.states[k].to_move + ": " + words(actions[k]) + ", " + (evs.map(describe).join("; ") || "done") + ".";
  }

  function focusCell() {
    const el = (focusName && cellNamed(focusName)) || document.querySelector('[data-hole][tabindex="0"],[data-point][tabindex="0"]');
    if (el) el.focus();
  }

  async function play(action) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "true"; // clicks are ignored meanwhile
    try {
      actions = actions.slice(0, at);
      actions.push(action);
      from = null;
      await refresh(true);
      announce();
    } catch (e) {
      actions.pop();
      $("status").textContent = "That move was refused: " + e.message;
    } finally {
      busy = false;
      delete document.body.dataset.busy;
    }
    maybeAgent();
  }

  async function agentMove() {
    busy = true;
    document.body.dataset.busy = "true"; // clicks are ignored meanwhile
    let ok = false;
    try {
      const r = await post(api + "/agent-move", { params: cfg.params, actions: actions, agent: $("agent").value, seed: seed });
      actions.push(r.action);
      await refresh(true);
      announce();
      ok = true;
    } catch (e) {
      $("status").textContent = "The agent could not move: " + e.message;
    } finally {
      busy = false;
      delete document.body.dataset.busy;
    }
    if (ok) maybeAgent();
  }

  function click(el) {
    if (!el.hasAttribute("data-legal") || busy) return;
    const name = nameOf(el);
    const legal = out.states[at].legal || [];
    if (from) {
      if (name === from) { from = null; draw(); return; }
      const m = legal.find((a) => a.move && a.move[0] === from && a.move[1] === name);
      if (m) play(m);
      return;
    }
    const direct = legal.filter((a) => !a.move && targets(a).includes(name));
    const moves = legal.filter((a) => a.move && a.move[0] === name);
    if (direct.length > 0) play(direct[0]);
    else if (moves.length > 0) { from = name; draw(); }
  }

  $("board").addEventListener("click", (e) => {
    const el = e.target.closest("[data-hole],[data-point]");
    if (el) click(el);
  });
  // The nearest hole or point from `el` in a direction (as drawn, turned or not).
  function neighbour(el, dx, dy) {
    const c = (x) => { const r = x.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
    const [x0, y0] = c(el);
    let best = null;
    let score = Infinity;
    for (const o of cells()) {
      if (o === el) continue;
      const [x, y] = c(o);
      const along = (x - x0) * dx + (y - y0) * dy;
      if (along <= 1) continue;
      const across = Math.abs((x - x0) * dy - (y - y0) * dx);
      const sc = along + 3 * across;
      if (sc < score) { score = sc; best = o; }
    }
    return best;
  }
  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  $("board").addEventListener("keydown", (e) => {
    const el = e.target.closest("[data-hole],[data-point]");
    if (!el) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (!el.hasAttribute("data-legal")) $("announce").textContent = nameOf(el) + " may not be chosen now.";
      click(el);
      return;
    }
    let to = null;
    if (arrows[e.key]) to = neighbour(el, arrows[e.key][0], arrows[e.key][1]);
    else if (e.key === "Home") to = cells()[0];
    else if (e.key === "End") to = cells()[cells().length - 1];
    else return;
    e.preventDefault();
    if (!to) return;
    for (const o of cells()) o.setAttribute("tabindex", "-1");
    to.setAttribute("tabindex", "0");
    focusName = nameOf(to);
    to.focus();
  });
  $("board").addEventListener("focusin", (e) => {
    const el = e.target.closest("[data-hole],[data-point]");
    if (el) focusName = nameOf(el);
  });
  for (const b of document.querySelectorAll("[data-choice]")) {
    b.addEventListener("click", () => play(JSON.parse(b.dataset.choice)));
  }
  $("back").addEventListener("click", () => { if (at > 0) { at--; from = null; draw(); } });
  $("forward").addEventListener("click", () => { if (at < actions.length) { at++; from = null; draw(true); } });
  $("to-start").addEventListener("click", () => { at = 0; from = null; draw(); });
  $("to-end").addEventListener("click", () => { at = actions.length; from = null; draw(); });
  $("new-game").addEventListener("click", async () => {
    actions = []; at = 0; from = null; seed = Math.floor(Math.random() * 1e9);
    await refresh(true);
    maybeAgent();
  });
  $("agent").addEventListener("change", () => { draw(); maybeAgent(); });
  $("seat").addEventListener("change", () => { draw(); maybeAgent(); });
  $("load").addEventListener("click", async () => {
    $("load-error").textContent = "";
    try {
      let v = JSON.parse($("paste").value);
      if (!Array.isArray(v)) v = v.actions || [];
      const keep = actions;
      actions = v;
      try { await refresh(false); at = 0; draw(); } catch (e) { actions = keep; throw e; }
    } catch (e) {
      $("load-error").textContent = "Not a game of this ruleset: " + e.message;
    }
  });
  for (const b of document.querySelectorAll("[data-demo]")) {
    b.addEventListener("click", async () => {
      $("agent").value = "";
      actions = cfg.demos[Number(b.dataset.demo)].actions.slice();
      await refresh(false);
      at = 0;
      draw();
      $("status").textContent = "Demonstration: step forward to watch it.";
      // The board comes into view with the step buttons below it.
      const r = $("board").getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) $("board").scrollIntoView({ block: "start" });
      $("forward").focus({ preventScroll: true });
    });
  }
  // A parameter refused: its input, with the reason beside it, has the focus.
  const refused = document.querySelector("form.params [aria-invalid]");
  if (refused) refused.focus();
  refresh(true).then(maybeAgent).catch((e) => { $("status").textContent = "Could not load the game: " + e.message; });
})();
