// Changes per minute by reason over the last hour: stacked bars in inline SVG drawn here, so the
// page needs no charting library and the picture scales to any width.

export const REASONS = ['NewBill', 'StatusChange', 'Text', 'Vote', 'Amendment'];
const MINUTES = 60;
const SVG = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

export class MinuteChart {
  /** @param {SVGSVGElement} svg @param {HTMLElement} legend */
  constructor(svg, legend) {
    this.svg = svg;
    this.legend = legend;
    /** minute (epoch ms floored) -> { reason: count } */
    this.buckets = new Map();
    this.dirty = true;
  }

  add(changedAt, reason) {
    const t = Date.parse(changedAt);
    if (Number.isNaN(t)) return;
    const minute = Math.floor(t / 60_000) * 60_000;
    const b = this.buckets.get(minute) ?? {};
    const key = REASONS.includes(reason) ? reason : 'Other';
    b[key] = (b[key] ?? 0) + 1;
    this.buckets.set(minute, b);
    this.dirty = true;
  }

  /** Minutes from now-59 to now, oldest first. */
  window(now = Date.now()) {
    const last = Math.floor(now / 60_000) * 60_000;
    const out = [];
    for (let i = MINUTES - 1; i >= 0; i--) {
      const m = last - i * 60_000;
      out.push({ minute: m, counts: this.buckets.get(m) ?? {} });
    }
    for (const m of this.buckets.keys()) if (m < last - MINUTES * 60_000) this.buckets.delete(m);
    return out;
  }

  render(now = Date.now()) {
    const data = this.window(now);
    const W = 600;
    const H = 180;
    const pad = { l: 48, r: 8, t: 10, b: 24 };
    const totals = data.map((d) => Object.values(d.counts).reduce((a, b) => a + b, 0));
    const max = Math.max(4, ...totals);
    const step = max <= 5 ? 1 : Math.ceil(max / 4);
    const top = Math.ceil(max / step) * step;
    const bw = (W - pad.l - pad.r) / MINUTES;
    const y = (v) => pad.t + (H - pad.t - pad.b) * (1 - v / top);
    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    for (let v = 0; v <= top; v += step) {
      svg.append(el('line', { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: 'grid' }));
      svg.append(el('text', { x: pad.l - 4, y: y(v) + 4, class: 'tick', 'text-anchor': 'end' }, String(v)));
    }
    for (const [label, idx] of [
      ['-60 min', 0],
      ['-30', 30],
      ['now', MINUTES - 1],
    ]) {
      svg.append(
        el(
          'text',
          {
            x: pad.l + bw * idx + bw / 2,
            y: H - 6,
            class: 'tick',
            'text-anchor': idx === 0 ? 'start' : idx === MINUTES - 1 ? 'end' : 'middle',
          },
          label,
        ),
      );
    }
    const sums = Object.fromEntries([...REASONS, 'Other'].map((r) => [r, 0]));
    data.forEach((d, i) => {
      let acc = 0;
      for (const r of [...REASONS, 'Other']) {
        const n = d.counts[r] ?? 0;
        if (!n) continue;
        sums[r] += n;
        const rect = el('rect', {
          x: pad.l + i * bw + 0.5,
          width: Math.max(1, bw - 1),
          y: y(acc + n),
          height: y(acc) - y(acc + n),
          class: `bar r-${r}`,
        });
        rect.append(
          el(
            'title',
            {},
            `${new Date(d.minute).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })}: ${n} ${r}`,
          ),
        );
        svg.append(rect);
        acc += n;
      }
    });
    const total = totals.reduce((a, b) => a + b, 0);
    svg.dataset.total = String(total);
    const parts = REASONS.filter((r) => sums[r] > 0).map((r) => `${sums[r]} ${r}`);
    if (sums.Other) parts.push(`${sums.Other} other`);
    svg.setAttribute(
      'aria-label',
      `Changes per minute over the last hour: ${total} in total${parts.length ? ` (${parts.join(', ')})` : ''}; busiest minute ${Math.max(0, ...totals)}.`,
    );
    this.legend.replaceChildren(
      ...[...REASONS, ...(sums.Other ? ['Other'] : [])].map((r) => {
        const li = document.createElement('li');
        li.dataset.reason = r;
        const sw = document.createElement('span');
        sw.className = `swatch r-${r}`;
        sw.setAttribute('aria-hidden', 'true');
        li.append(sw, ` ${r} `);
        const n = document.createElement('strong');
        n.textContent = String(sums[r]);
        li.append(n);
        return li;
      }),
    );
    this.dirty = false;
  }
}
