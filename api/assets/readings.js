// The readings-study form (posts the study; its parameter boxes follow the ruleset chosen)
// and the live progress of a running study (reloads the page when it ends).
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);

  // The API token, on a server that asks for one (kept for this tab only).
  const token = $("token");
  if (token) token.value = sessionStorage.getItem("tsoro-token") || "";

  const form = $("readings");
  if (form) {
    const byRuleset = JSON.parse($("reading-params").textContent);
    const boxes = $("params");
    $("ruleset").addEventListener("change", () => {
      boxes.querySelectorAll("p").forEach((p) => p.remove());
      (byRuleset[$("ruleset").value] || []).forEach((name, i) => {
        const p = document.createElement("p");
        const label = document.createElement("label");
        const box = document.createElement("input");
        box.type = "checkbox";
        box.name = "param";
        box.value = name;
        box.checked = i === 0;
        const code = document.createElement("code");
        code.textContent = name;
        label.append(box, " ", code);
        p.append(label);
        boxes.append(p);
      });
    });
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      $("form-error").textContent = "";
      const body = {
        ruleset: $("ruleset").value,
        params: Array.from(boxes.querySelectorAll("input[name=param]:checked")).map((b) => b.value),
        agents: $("agents").value.split(",").map((a) => a.trim()).filter((a) => a),
        games: Number($("games").value),
        seed: $("seed").value.trim(),
      };
      const headers = { "Content-Type": "application/json", Accept: "application/json" };
      if (token && token.value.trim()) {
        sessionStorage.setItem("tsoro-token", token.value.trim());
        headers.Authorization = "Bearer " + token.value.trim();
      }
      $("start").disabled = true;
      try {
        const r = await fetch("/api/v1/readings", { method: "POST", headers: headers, body: JSON.stringify(body) });
        const j = await r.json();
        if (!r.ok) {
          const fields = (j.errors || []).map((x) => x.field + ": " + x.message).join("; ");
          throw new Error((j.detail || r.statusText) + (fields ? " (" + fields + ")" : ""));
        }
        location.href = "/readings/" + j.id;
      } catch (err) {
        $("form-error").textContent = "The study was not started: " + err.message;
        $("start").disabled = false;
      }
    });
  }

  const progress = $("progress");
  if (progress && progress.dataset.finished === "false") {
    const url = "/api/v1/readings/" + progress.dataset.study + "?wait=2";
    const poll = async () => {
      try {
        const r = await fetch(url, { headers: { Accept: "application/json" } });
        const j = await r.json();
        let done = 0;
        let all = 0;
        j.runs.runs.forEach((run) => {
          done += run.progress.games_done;
          all += run.progress.games;
        });
        $("bar").value = all ? Math.floor((100 * done) / all) : 0;
        $("progress-text").textContent = j.status + ": " + done + " of " + all + " games";
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
