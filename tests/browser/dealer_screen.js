/* The tablet's screen checks, run in the page by tests/browser/dealer_screen.py:
   check("small targets") lists visible buttons, fields, seats and summaries under 44 x 44 px;
   check("low contrast") lists text below WCAG AA contrast (4.5:1, 3:1 for large text), from the
   colours Chromium computed, each background blended through its ancestors' transparency.
   Both look at the tablet and at its dialog when open. */
(check) => {
  const roots = [document.getElementById("tablet"), document.getElementById("ask")]
    .filter((root) => root && !(root.tagName === "DIALOG" && !root.open));
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden"
      && !e.closest("[hidden]");
  };

  function smallTargets() {
    const out = [];
    const kinds = "button, select, input:not([type=checkbox]), summary, .seat.takes, "
      + "label:has(input[type=checkbox])";
    for (const root of roots) {
      for (const t of root.querySelectorAll(kinds)) {
        if (!shown(t)) continue;
        const r = t.getBoundingClientRect();
        if (r.width < 44 || r.height < 44) {
          const what = t.textContent.trim().slice(0, 30);
          out.push(`${t.tagName} "${what}" ${Math.round(r.width)}x${Math.round(r.height)}`);
        }
      }
    }
    return out;
  }

  const rgba = (c) => {
    const m = c.match(/[\d.]+/g).map(Number);
    return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
  };
  const luminance = ([r, g, b]) => {
    const f = (v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const background = (e) => {
    const layers = [];
    for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };

  function lowContrast() {
    const out = [];
    for (const root of roots) {
      for (const e of root.querySelectorAll("*")) {
        const text = [...e.childNodes].filter((n) => n.nodeType === 3)
          .map((n) => n.textContent.trim()).join("");
        if (!text || !shown(e) || e.disabled) continue;
        const s = getComputedStyle(e);
        const bg = background(e);
        const fg = over(rgba(s.color), bg);
        const [light, dark] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
        const ratio = (light + 0.05) / (dark + 0.05);
        const size = parseFloat(s.fontSize);
        const large = size >= 24 || (Number(s.fontWeight) >= 700 && size >= 18.66);
        const need = large ? 3 : 4.5;
        if (ratio < need) {
          out.push(`"${text.slice(0, 30)}" ${ratio.toFixed(2)} < ${need}: ${s.color} on rgb(${bg.slice(0, 3).map(Math.round)})`);
        }
      }
    }
    return out;
  }

  return { "small targets": smallTargets, "low contrast": lowContrast }[check]();
}
