// Read by tests/web/panel_reading.py: the odds panel (#overlay) measured as it is drawn.
(() => {
  const panel = document.getElementById('overlay');
  const hidden = [...document.querySelectorAll('#tip, #toasts')];
  hidden.forEach((e) => { e.dataset.was = e.style.display; e.style.display = 'none'; });
  const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    // not drawn (a closed <details>, visibility: hidden): nothing a person reads
    if (!n.parentElement.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    if (rects.length) texts.push({ node: n, text: n.textContent.trim().slice(0, 40), rects });
  }
  const out = { count: texts.length, overlaps: [], covered: [], outside: [], clipped: [] };
  const pr = panel.getBoundingClientRect();
  const inter = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      if (texts[i].rects.some((a) => texts[j].rects.some((b) => inter(a, b)))) {
        out.overlaps.push([texts[i].text, texts[j].text]);
      }
    }
  }
  for (const t of texts) {
    const own = t.node.parentElement;
    const box = own.getBoundingClientRect();
    for (const r of t.rects) {
      if (r.left < pr.left - 1 || r.right > pr.right + 1) out.outside.push([t.text, 'panel', r.left, r.right, pr.left, pr.right]);
      else if (own.getClientRects().length === 1 && (r.left < box.left - 1.5 || r.right > box.right + 1.5)) {
        out.outside.push([t.text, own.className || own.tagName, r.left, r.right, box.left, box.right]);
      }
    }
    own.scrollIntoView({ block: 'center', inline: 'nearest' });
    const r = t.node.ownerDocument.createRange();
    r.selectNodeContents(t.node);
    const first = [...r.getClientRects()].find((x) => x.width > 0.5);
    if (!first) continue;
    const hit = document.elementFromPoint(first.left + first.width / 2, first.top + first.height / 2);
    if (hit && hit !== own && !own.contains(hit) && !hit.contains(own)) {
      out.covered.push([t.text, hit.tagName + '.' + hit.className]);
    }
  }
  for (const e of [panel, ...panel.querySelectorAll('*')]) {
    if (!e.getClientRects().length || !e.checkVisibility({ visibilityProperty: true })) continue;
    const style = getComputedStyle(e);
    const clips = e === panel || style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
    if (clips && e.scrollWidth > e.clientWidth + 1) out.clipped.push([e.className || e.tagName, e.scrollWidth, e.clientWidth]);
  }
  out.page = { scroll: document.documentElement.scrollWidth, inner: window.innerWidth };
  out.gists = [...panel.querySelectorAll('.gists li')].map((li) => [li.dataset.holder, li.textContent]);
  hidden.forEach((e) => { e.style.display = e.dataset.was; });
  return out;
})()
