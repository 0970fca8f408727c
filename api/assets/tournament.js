// The tournament form (posts the tournament, or the ladder) and the live progress of a running one
// (reloads the page when it ends).
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  // The API token, on a server that asks for one (kept for this tab only).
  const token = $("token");
  if (token) token.value = sessionStorage.getItem("tsoro-token") || "";

  const form = $("tournament");
  if (form) {
    // A tournament of chosen agents, or a ladder: each shows its own fields.
    const isLadder = () => $("kind-ladder").checked;
    const showKind = () => {
      $("agents-fields").hidden = isLadder();
      $("ladder-fields").hidden = !isLadder();
    };
    $("kind-agents").addEventListener("change", showKind);
    $("kind-ladder").addEventListener("change", showKind);
    showKind();
    // Each family's levels start from its own range.
    const ranges = { mcts: ["16", "1024"], alphabeta: ["1", "4"] };
    $("family").addEventListener("change", () => {
      const r = ranges[$("family").value];
      if (r) [$("from").value, $("to").value] = r;
    });
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      $("form-error").textContent = "";
      const body = {
        ruleset: $("ruleset").value,
        pairs: Number($("pairs").value),
        seed: $("seed").value.trim(),
        opening_plies: Number($("opening_plies").value),
      };
      if (isLadder()) {
        body.family = $("family").value;
        body.from = Number($("from").value);
        body.to = Number($("to").value);
      } else {
        body.agents = $("agents").value.split(",").map((a) => a.trim()).filter((a) => a);
      }
      const headers = { "Content-Type": "application/json", Accept: "application/json" };
      if (token && token.value.trim()) {
        sessionStorage.setItem("tsoro-token", token.value.trim());
        headers.Authorization = "Bearer " + token.value.trim();
      }
      $("start").disabled = true;
      try {
        const url = isLadder() ? "/api/v1/ladders" : "/api/v1/tournaments";
        const r = await fetch(url, { method: "POST", headers: headers, body: JSON.stringify(body) });
        const j = await r.json();
        if (!r.ok) {
          const fields = (j.errors || []).map((x) => x.field + ": " + x.message).join("; ");
          throw new Error((j.detail || r.statusText) + (fields ? " (" + fields + ")" : ""));
        }
        location.href = "/tournaments/" + j.id;
      } catch (err) {
        $("form-error").textContent = (isLadder() ? "The ladder" : "The tournament") + " was not started: " + err.message;
        $("start").disabled = false;
      }
    });
  }

  const progress = $("progress");
  if (progress && progress.dataset.finished === "false") {
    const url = "/api/v1/tournaments/" + progress.dataset.tournament + "?wait=2";
    const poll = async () => {
      try {
        const r = await fetch(url, { headers: { Accept: "application/json" } });
        const j = await r.json();
        const p = j.progress;
        $("bar").value = Math.floor(100 * p.fraction);
        $("progress-text").textContent = j.status + ": " + p.games_done + " of " + p.games + " games";
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
