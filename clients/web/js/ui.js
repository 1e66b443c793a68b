// Small shared pieces of page chrome: the connection badge, toast messages, the tooltip.

const LABELS = {
  connecting: "connecting…",
  open: "connected",
  lost: "connection lost — reconnecting…",
  reconnecting: "reconnecting…",
  offline: "",
};

export function setConn(status) {
  const el = document.getElementById("conn");
  if (!el) return;
  el.textContent = LABELS[status] ?? status;
  el.dataset.status = status;
}

export function toast(text, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = document.createElement("div");
  item.className = `toast ${kind}`;
  item.setAttribute("role", kind === "error" ? "alert" : "status");
  item.textContent = text;
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}

// Every toast goes (a new page: they spoke of the one before).
export function clearToasts() {
  const box = document.getElementById("toasts");
  if (box) box.replaceChildren();
}

// What the advisor's figures are (the server's `advice.label`): said wherever they show.
export const ADVICE_LABEL = "optimistic estimate (perfect-information)";

export const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

// The page's one tooltip (#tip): `text` under the element box `rect`.
export function showTip(text, rect) {
  const tip = document.getElementById("tip");
  if (!tip) return;
  tip.textContent = text;
  tip.hidden = false;
  tip.style.left = `${Math.max(4, Math.min(window.innerWidth - 260, rect.left + window.scrollX))}px`;
  tip.style.top = `${rect.bottom + window.scrollY + 6}px`;
}

export function hideTip() {
  const tip = document.getElementById("tip");
  if (tip) tip.hidden = true;
}
