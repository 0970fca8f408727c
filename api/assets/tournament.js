// The tournament form (posts the tournament, or the ladder) and the live progress of a running one
// (reloads the page when it ends).
import { $, followProgress, post, showProgress, startsJob } from "/assets/jobs.js";

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
  startsJob(form, () => (isLadder() ? "The ladder" : "The tournament"), async () => {
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
    const j = await post(isLadder() ? "/api/v1/ladders" : "/api/v1/tournaments", body);
    location.href = "/tournaments/" + j.id;
  });
}

followProgress((d) => "/api/v1/tournaments/" + d.tournament, (j) => {
  const p = j.progress;
  showProgress(Math.floor(100 * p.fraction), j.status + ": " + p.games_done + " of " + p.games + " games");
});
