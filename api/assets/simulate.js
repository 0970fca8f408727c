// The simulation form (builds the parameter fields of the chosen ruleset, posts the job) and
// the live progress of a running simulation or comparison (reloads the page when it ends).
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  // The API token, on a server that asks for one (kept for this tab only).
  const token = $("token");
  if (token) token.value = sessionStorage.getItem("tsoro-token") || "";

  async function post(url, body) {
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (token && token.value.trim()) {
      sessionStorage.setItem("tsoro-token", token.value.trim());
      headers.Authorization = "Bearer " + token.value.trim();
    }
    const r = await fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body) });
    const j = await r.json();
    if (!r.ok) {
      const fields = (j.errors || []).map((e) => e.field + ": " + e.message).join("; ");
      const err = new Error((j.detail || r.statusText) + (fields ? " (" + fields + ")" : ""));
      err.fields = j.errors || [];
      throw err;
    }
    return j;
  }

  // The form's input a problem's field names (`params.holes`, `agents`, `rulesets[1]`...).
  const inputOf = (field) => {
    const f = field.replace(/^rulesets\[\d+\]\.?/, "");
    if (f.startsWith("params.")) return $("param-" + f.slice(7));
    const ids = { agents: "agent1", games: "games", seed: "seed", turn_limit: "turn_limit", ruleset: "ruleset", "": "ruleset" };
    return f in ids ? $(ids[f]) : null;
  };

  // Clears the errors shown beside the fields.
  const clearFieldErrors = () => {
    for (const s of document.querySelectorAll(".field-error")) s.remove();
    for (const i of document.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
  };

  // Shows each fault beside its field, and moves the focus to the first.
  const showFieldErrors = (faults) => {
    let first = null;
    for (const e of faults) {
      const input = inputOf(e.field || "");
      if (!input) continue;
      const span = document.createElement("span");
      span.className = "field-error error";
      span.id = input.id + "-error";
      span.textContent = " " + (e.message || "") ;
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", span.id);
      input.insertAdjacentElement("afterend", span);
      first = first || input;
    }
    if (first) first.focus();
  };

  const form = $("simulate");
  if (form) {
    const specs = JSON.parse($("ruleset-params").textContent);
    const fieldset = $("params");
    const drawParams = () => {
      for (const p of fieldset.querySelectorAll("p.param")) p.remove();
      for (const spec of specs[$("ruleset").value] || []) {
        const p = document.createElement("p");
        p.className = "param";
        const id = "param-" + spec.name;
        const label = document.createElement("label");
        label.htmlFor = id;
        label.textContent = spec.name + " (" + spec.range + ")";
        const input = document.createElement("input");
        input.id = id;
        input.name = spec.name;
        input.value = typeof spec.default === "string" ? spec.default : JSON.stringify(spec.default);
        input.dataset.default = input.value;
        input.dataset.type = typeof spec.default;
        const small = document.createElement("small");
        small.textContent = spec.description;
        p.append(label, " ", input, " ", small);
        fieldset.appendChild(p);
      }
    };
    // Nhodo has no agents (nor a separate turn limit: it is one of its parameters), and
    // runs as a nhodo job.
    const isNhodo = () => $("ruleset").selectedOptions[0]?.dataset.nhodo === "true";
    const showFields = () => {
      for (const id of ["agents-fields", "turn-limit-field", "compare-field"]) $(id).hidden = isNhodo();
    };
    $("ruleset").addEventListener("change", () => { drawParams(); showFields(); });
    drawParams();
    showFields();
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      $("form-error").textContent = "";
      clearFieldErrors();
      const params = {};
      for (const input of fieldset.querySelectorAll("input")) {
        if (input.value === input.dataset.default) continue;
        const t = input.dataset.type;
        // A number mistyped goes as typed: the service names the field and what it allows.
        const n = Number(input.value);
        params[input.name] = t === "number" ? (input.value.trim() !== "" && Number.isFinite(n) ? n : input.value) : t === "boolean" ? input.value === "true" : input.value;
      }
      const body = {
        params: params,
        agents: [$("agent1").value.trim(), $("agent2").value.trim()],
        games: Number($("games").value),
        seed: Number($("seed").value),
        swap_seats: $("swap").checked,
      };
      if ($("turn_limit").value) body.turn_limit = Number($("turn_limit").value);
      const others = Array.from($("compare").selectedOptions).map((o) => o.value).filter((v) => v !== $("ruleset").value);
      $("start").disabled = true;
      try {
        if (isNhodo()) {
          const n = await post("/api/v1/nhodo", { ruleset: $("ruleset").value, params: params, games: body.games, seed: body.seed });
          location.href = "/nhodo/" + n.id;
        } else if (others.length > 0) {
          body.rulesets = [$("ruleset").value].concat(others);
          const c = await post("/api/v1/comparisons", body);
          location.href = "/comparisons/" + c.id;
        } else {
          body.ruleset = $("ruleset").value;
          const j = await post("/api/v1/simulations", body);
          location.href = "/simulations/" + j.id;
        }
      } catch (err) {
        $("form-error").textContent = "The simulation was not started: " + err.message;
        showFieldErrors(err.fields || []);
        $("start").disabled = false;
      }
    });
  }

  const progress = $("progress");
  if (progress && progress.dataset.finished === "false") {
    const job = progress.dataset.job;
    const url = progress.dataset.api ? progress.dataset.api + "?wait=2" : job ? "/api/v1/simulations/" + job + "?wait=2" : "/api/v1/comparisons/" + progress.dataset.comparison + "?wait=2";
    const poll = async () => {
      try {
        const r = await fetch(url, { headers: { Accept: "application/json" } });
        const j = await r.json();
        if (job) {
          const p = j.progress;
          $("bar").value = Math.floor(100 * p.fraction);
          const rate = p.games_per_second ? ", " + (p.games_per_second < 10 ? p.games_per_second.toFixed(2) : Math.round(p.games_per_second)) + " games/s" : "";
          const eta = p.eta_seconds ? ", about " + (p.eta_seconds < 90 ? Math.ceil(p.eta_seconds) + " s" : Math.ceil(p.eta_seconds / 60) + " min") + " left" : "";
          $("progress-text").textContent = j.status + ": " + p.games_done + " of " + p.games + " games" + rate + eta;
        }
        if (["done", "failed", "cancelled"].includes(j.status)) {
          location.reload();
          return;
        }
      } catch (e) {
        // The server may be restarting: try again.
      }
      setTimeout(poll, 500);
    };
    poll();
  }
})();
