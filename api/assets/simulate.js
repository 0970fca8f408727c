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
      throw new Error((j.detail || r.statusText) + (fields ? " (" + fields + ")" : ""));
    }
    return j;
  }

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
    $("ruleset").addEventListener("change", drawParams);
    drawParams();
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      $("form-error").textContent = "";
      const params = {};
      for (const input of fieldset.querySelectorAll("input")) {
        if (input.value === input.dataset.default) continue;
        const t = input.dataset.type;
        params[input.name] = t === "number" ? Number(input.value) : t === "boolean" ? input.value === "true" : input.value;
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
        if (others.length > 0) {
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
        $("start").disabled = false;
      }
    });
  }

  const progress = $("progress");
  if (progress && progress.dataset.finished === "false") {
    const job = progress.dataset.job;
    const url = job ? "/api/v1/simulations/" + job + "?wait=2" : "/api/v1/comparisons/" + progress.dataset.comparison + "?wait=2";
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
