// The simulation form (builds the parameter fields of the chosen ruleset, posts the job) and
// the live progress of a running simulation or comparison (reloads the page when it ends).
import { $, followProgress, post, showProgress, startsJob } from "/assets/jobs.js";

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
  // Each parameter as its input: a menu of its choices (yes or no for a switch), or a number
  // input with its range; the range in words in its label.
  const drawParams = () => {
    for (const p of fieldset.querySelectorAll("p.param")) p.remove();
    for (const spec of specs[$("ruleset").value] || []) {
      const p = document.createElement("p");
      p.className = "param";
      const id = "param-" + spec.name;
      const label = document.createElement("label");
      label.htmlFor = id;
      const code = document.createElement("code");
      code.textContent = spec.name;
      const range = document.createElement("span");
      range.className = "muted";
      range.textContent = " (" + spec.range + ")";
      label.append(code, range);
      const value = typeof spec.default === "string" ? spec.default : JSON.stringify(spec.default);
      let input;
      if (spec.input === "int") {
        input = document.createElement("input");
        input.type = "number";
        input.inputMode = "numeric";
        input.min = spec.min;
        input.max = spec.max;
        input.step = 1;
      } else {
        input = document.createElement("select");
        const options = spec.input === "bool" ? [["true", "yes"], ["false", "no"]] : (spec.choices || []).map((c) => [c, c]);
        for (const [v, words] of options) {
          const o = document.createElement("option");
          o.value = v;
          o.textContent = words;
          input.appendChild(o);
        }
      }
      input.id = id;
      input.name = spec.name;
      input.value = value;
      input.dataset.default = value;
      input.dataset.type = typeof spec.default;
      const small = document.createElement("small");
      small.id = id + "-about";
      small.textContent = spec.description;
      input.setAttribute("aria-describedby", small.id);
      p.append(label, " ", input, " ", small);
      fieldset.appendChild(p);
    }
  };
  // Nhodo has no agents (nor a separate turn limit: it is one of its parameters), and
  // runs as a nhodo job.
  const isNhodo = () => $("ruleset").selectedOptions[0]?.dataset.nhodo === "true";
  // A ruleset with a turn_limit parameter sets it there: the form's own field is hidden.
  const limitParam = () => (specs[$("ruleset").value] || []).some((s) => s.name === "turn_limit");
  const showFields = () => {
    for (const id of ["agents-fields", "turn-limit-field", "compare-field"]) $(id).hidden = isNhodo();
    if (limitParam()) $("turn-limit-field").hidden = true;
  };
  $("ruleset").addEventListener("change", () => { drawParams(); showFields(); });
  drawParams();
  showFields();
  startsJob(form, "The simulation", async () => {
    clearFieldErrors();
    const params = {};
    for (const input of fieldset.querySelectorAll("input, select")) {
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
    if (!$("turn-limit-field").hidden && $("turn_limit").value) body.turn_limit = Number($("turn_limit").value);
    const others = Array.from($("compare").selectedOptions).map((o) => o.value).filter((v) => v !== $("ruleset").value);
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
  }, (err) => showFieldErrors(err.fields || []));
}

// A simulation's progress with its rate and time left; a comparison's page only waits
// for its end.
followProgress(
  (d) => d.api || (d.job ? "/api/v1/simulations/" + d.job : "/api/v1/comparisons/" + d.comparison),
  (j, d) => {
    if (!d.job) return;
    const p = j.progress;
    const rate = p.games_per_second ? ", " + (p.games_per_second < 10 ? p.games_per_second.toFixed(2) : Math.round(p.games_per_second)) + " games/s" : "";
    const eta = p.eta_seconds ? ", about " + (p.eta_seconds < 90 ? Math.ceil(p.eta_seconds) + " s" : Math.ceil(p.eta_seconds / 60) + " min") + " left" : "";
    showProgress(Math.floor(100 * p.fraction), j.status + ": " + p.games_done + " of " + p.games + " games" + rate + eta);
  },
);
