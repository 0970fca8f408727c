// The readings-study form (posts the study; its parameter boxes follow the ruleset chosen)
// and the live progress of a running study (reloads the page when it ends).
import { $, followProgress, post, showProgress, startsJob } from "/assets/jobs.js";

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
  startsJob(form, "The study", async () => {
    const j = await post("/api/v1/readings", {
      ruleset: $("ruleset").value,
      params: Array.from(boxes.querySelectorAll("input[name=param]:checked")).map((b) => b.value),
      agents: $("agents").value.split(",").map((a) => a.trim()).filter((a) => a),
      games: Number($("games").value),
      seed: $("seed").value.trim(),
    });
    location.href = "/readings/" + j.id;
  });
}

// A study's progress: the games of all its runs.
followProgress((d) => "/api/v1/readings/" + d.study, (j) => {
  let done = 0;
  let all = 0;
  j.runs.runs.forEach((run) => {
    done += run.progress.games_done;
    all += run.progress.games;
  });
  showProgress(all ? Math.floor((100 * done) / all) : 0, j.status + ": " + done + " of " + all + " games");
});
