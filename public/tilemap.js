/* global HTMLElement */
// A tile grid of the 52 jurisdictions (50 states, DC, and US for Congress) whose cells light up
// with activity. Equal-sized tiles keep small states visible, which a true map would not.

/** [code, name, row, col] on an 8 x 11 grid that keeps rough geography. */
export const TILES = [
  ['AK', 'Alaska', 0, 0],
  ['ME', 'Maine', 0, 10],
  ['VT', 'Vermont', 1, 9],
  ['NH', 'New Hampshire', 1, 10],
  ['WA', 'Washington', 2, 0],
  ['ID', 'Idaho', 2, 1],
  ['MT', 'Montana', 2, 2],
  ['ND', 'North Dakota', 2, 3],
  ['MN', 'Minnesota', 2, 4],
  ['IL', 'Illinois', 2, 5],
  ['WI', 'Wisconsin', 2, 6],
  ['MI', 'Michigan', 2, 7],
  ['NY', 'New York', 2, 8],
  ['RI', 'Rhode Island', 2, 9],
  ['MA', 'Massachusetts', 2, 10],
  ['OR', 'Oregon', 3, 0],
  ['NV', 'Nevada', 3, 1],
  ['WY', 'Wyoming', 3, 2],
  ['SD', 'South Dakota', 3, 3],
  ['IA', 'Iowa', 3, 4],
  ['IN', 'Indiana', 3, 5],
  ['OH', 'Ohio', 3, 6],
  ['PA', 'Pennsylvania', 3, 7],
  ['NJ', 'New Jersey', 3, 8],
  ['CT', 'Connecticut', 3, 9],
  ['CA', 'California', 4, 0],
  ['UT', 'Utah', 4, 1],
  ['CO', 'Colorado', 4, 2],
  ['NE', 'Nebraska', 4, 3],
  ['MO', 'Missouri', 4, 4],
  ['KY', 'Kentucky', 4, 5],
  ['WV', 'West Virginia', 4, 6],
  ['VA', 'Virginia', 4, 7],
  ['MD', 'Maryland', 4, 8],
  ['DE', 'Delaware', 4, 9],
  ['AZ', 'Arizona', 5, 1],
  ['NM', 'New Mexico', 5, 2],
  ['KS', 'Kansas', 5, 3],
  ['AR', 'Arkansas', 5, 4],
  ['TN', 'Tennessee', 5, 5],
  ['NC', 'North Carolina', 5, 6],
  ['SC', 'South Carolina', 5, 7],
  ['DC', 'District of Columbia', 5, 8],
  ['OK', 'Oklahoma', 6, 3],
  ['LA', 'Louisiana', 6, 4],
  ['MS', 'Mississippi', 6, 5],
  ['AL', 'Alabama', 6, 6],
  ['GA', 'Georgia', 6, 7],
  ['HI', 'Hawaii', 7, 0],
  ['TX', 'Texas', 7, 3],
  ['FL', 'Florida', 7, 8],
  ['US', 'US Congress', 7, 10],
];

export const CODES = TILES.map((t) => t[0]);
const NAMES = Object.fromEntries(TILES.map(([c, n]) => [c, n]));
export const stateName = (code) => NAMES[code] ?? code;

/** Activity in the last ACTIVE_MS decides how bright a tile is; older changes fade out. */
const ACTIVE_MS = 10 * 60_000;

export class TileMap {
  /** @param {HTMLElement} root @param {(code: string) => void} onToggle */
  constructor(root, onToggle) {
    this.root = root;
    this.hits = new Map(CODES.map((c) => [c, []]));
    this.totals = new Map(CODES.map((c) => [c, 0]));
    this.cells = new Map();
    for (const [code, name, row, col] of TILES) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'tile';
      b.style.gridRow = String(row + 1);
      b.style.gridColumn = String(col + 1);
      b.dataset.state = code;
      b.dataset.count = '0';
      b.dataset.level = '0';
      b.setAttribute('aria-pressed', 'false');
      b.textContent = code;
      b.title = name;
      b.addEventListener('click', () => onToggle(code));
      this.cells.set(code, b);
      root.append(b);
    }
    root.addEventListener('keydown', (e) => this.arrows(e));
    this.update();
  }

  /** Arrow keys move between tiles in grid order (one tab stop for the whole map). */
  arrows(e) {
    const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (!(e.key in keys) || !(e.target instanceof HTMLElement) || !e.target.dataset.state) return;
    const order = [...TILES].sort((a, b) => a[2] - b[2] || a[3] - b[3]).map((t) => t[0]);
    const i = order.indexOf(e.target.dataset.state);
    const next = this.cells.get(order[(i + keys[e.key] + order.length) % order.length]);
    e.preventDefault();
    this.focusable(next);
    next.focus();
  }

  focusable(cell) {
    for (const c of this.cells.values()) c.tabIndex = c === cell ? 0 : -1;
  }

  hit(code, at = Date.now()) {
    if (!this.hits.has(code)) return;
    this.hits.get(code).push(at);
    this.totals.set(code, this.totals.get(code) + 1);
    const cell = this.cells.get(code);
    cell.classList.remove('flash');
    // Restart the flash animation for back-to-back changes in the same state.
    void cell.offsetWidth;
    cell.classList.add('flash');
  }

  setSelected(codes) {
    for (const [code, cell] of this.cells) cell.setAttribute('aria-pressed', String(codes.includes(code)));
  }

  update(now = Date.now()) {
    let first;
    for (const [code, cell] of this.cells) {
      const recent = this.hits.get(code).filter((t) => now - t < ACTIVE_MS);
      this.hits.set(code, recent);
      const n = recent.length;
      const level = n === 0 ? 0 : n < 3 ? 1 : n < 10 ? 2 : 3;
      cell.dataset.level = String(level);
      cell.dataset.count = String(this.totals.get(code));
      const selected = cell.getAttribute('aria-pressed') === 'true';
      cell.setAttribute(
        'aria-label',
        `${stateName(code)}: ${n} change${n === 1 ? '' : 's'} in the last 10 minutes, ${this.totals.get(code)} since the page opened${selected ? '; in the filter' : ''}`,
      );
      first ??= cell;
    }
    if (![...this.cells.values()].some((c) => c.tabIndex === 0)) this.focusable(first);
  }
}
