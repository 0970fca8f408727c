// What the job pages' scripts share (simulations, comparisons, nhodo runs, tournaments,
// ladders, readings studies): the API token, a form that posts a job, and the live progress
// of a running one. A module: each page's script imports what it uses.

export const $ = (id) => document.getElementById(id);

// The API token, on a server that asks for one (kept for this tab only).
const token = $("token");
if (token) token.value = sessionStorage.getItem("tsoro-token") || "";

// POSTs `body` as JSON to `url` (with the token, if one was given) and answers what was
// queued; a problem is thrown as an Error saying its detail and fields, the fields' faults
// in its `fields`.
export async function post(url, body) {
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

// Runs `start` (it posts the job and goes to its page) when `form` is submitted, the start
// button disabled meanwhile; when it fails, says that `what` (a text, or a function giving
// it) was not started and why, hands the error to `onError` if given, and lets the user try
// again.
export function startsJob(form, what, start, onError) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    $("form-error").textContent = "";
    $("start").disabled = true;
    try {
      await start();
    } catch (err) {
      const name = typeof what === "function" ? what() : what;
      $("form-error").textContent = name + " was not started: " + err.message;
      if (onError) onError(err);
      $("start").disabled = false;
    }
  });
}

// Shows a running job's progress: `percent` on the bar, and `text`.
export function showProgress(percent, text) {
  $("bar").value = percent;
  $("progress-text").textContent = text;
}

// On the page of a job that has not finished (its `#progress` says so), asks the API at
// `urlOf(progress.dataset)` for it every moment (each ask waits up to 2 s for its end),
// hands each answer to `show` (with that dataset), and reloads the page once it has ended.
export function followProgress(urlOf, show) {
  const progress = $("progress");
  if (!progress || progress.dataset.finished !== "false") return;
  const url = urlOf(progress.dataset) + "?wait=2";
  const poll = async () => {
    try {
      const r = await fetch(url, { headers: { Accept: "application/json" } });
      const j = await r.json();
      show(j, progress.dataset);
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
