// The bill panel: details, where the bill stands on the status ladder, its history and its votes,
// fetched from the API with the same key the stream uses.

export const LADDER = [
  [1, 'Introduced'],
  [2, 'In Committee'],
  [3, 'Passed One Chamber'],
  [4, 'Passed Both Chambers'],
  [5, 'Signed into Law'],
  [6, 'Vetoed'],
  [7, 'Failed / Dead'],
  [8, 'Chaptered (law)'],
];

// Steps a bill must have passed to hold a status. The ladder is not linear: a veto or a signature
// follows passage by both chambers, chaptering follows signing, and a failure can come at any step.
const REACHED = { 2: [1], 3: [1, 2], 4: [1, 2, 3], 5: [1, 2, 3, 4], 6: [1, 2, 3, 4], 7: [1], 8: [1, 2, 3, 4, 5] };

function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** Plain-words reason for a failed API call, from the error envelope when there is one. */
export async function explainFailure(res) {
  const body = await res.json().catch(() => null);
  const code = body?.error?.code;
  if (res.status === 401) return 'The API key was refused (' + (code ?? 'unauthorized') + ').';
  if (res.status === 404) return 'Not found: the service has no record of this.';
  if (res.status === 429) return `Rate limited; try again in ${res.headers.get('Retry-After') ?? 'a few'} seconds.`;
  return `The service answered HTTP ${res.status}${body?.error?.message ? `: ${body.error.message}` : '.'}`;
}

export class BillPanel {
  /** @param {HTMLDialogElement} dialog @param {() => string} getKey @param {(path: string) => string} api */
  constructor(dialog, getKey, api) {
    this.dialog = dialog;
    this.body = dialog.querySelector('[data-role="bill-body"]');
    this.title = dialog.querySelector('[data-role="bill-title"]');
    this.getKey = getKey;
    this.api = api;
    this.seq = 0;
    dialog.querySelector('[data-role="bill-close"]').addEventListener('click', () => dialog.close());
    dialog.addEventListener('click', (e) => {
      if (e.target === dialog) dialog.close();
    });
  }

  async get(path) {
    const res = await fetch(this.api(path), { headers: { 'X-API-Key': this.getKey() } });
    if (!res.ok) throw new Error(await explainFailure(res));
    return (await res.json()).data;
  }

  async open(billId, hint = {}) {
    const seq = ++this.seq;
    this.title.textContent = hint.bill_number ? `${hint.state ?? ''} ${hint.bill_number}`.trim() : `Bill ${billId}`;
    this.body.replaceChildren(h('p', { class: 'muted', text: 'Loading…' }));
    this.dialog.dataset.billId = String(billId);
    if (!this.dialog.open) this.dialog.showModal();
    const [bill, history, votes] = await Promise.allSettled([
      this.get(`/v1/bills/${billId}`),
      this.get(`/v1/bills/${billId}/history`),
      this.get(`/v1/bills/${billId}/votes`),
    ]);
    if (seq !== this.seq) return; // another bill was opened meanwhile
    this.body.replaceChildren(this.details(bill, hint), this.ladder(bill), this.history(history), this.votes(votes));
    this.dialog.dataset.loaded = 'true';
  }

  failed(r) {
    return h('p', { class: 'problem', role: 'note', text: r.reason?.message ?? String(r.reason) });
  }

  details(r, hint) {
    if (r.status === 'rejected') return h('section', {}, h('p', { text: hint.title ?? '' }), this.failed(r));
    const b = r.value;
    this.title.textContent = `${b.state_abbr} ${b.bill_number}`;
    const dl = h('dl', { class: 'facts' });
    const row = (k, v) =>
      v !== null && v !== undefined && v !== '' && dl.append(h('dt', { text: k }), h('dd', { text: String(v) }));
    row('Title', b.title);
    row('Description', b.description !== b.title ? b.description : null);
    row('Last action', b.last_action);
    row('Status date', b.status_date);
    row('Updated', b.updated);
    const link = b.state_url
      ? h('a', {
          href: b.state_url,
          rel: 'noopener noreferrer',
          target: '_blank',
          text: 'Read on the legislature’s site',
        })
      : null;
    return h('section', { 'aria-label': 'Details' }, dl, link);
  }

  ladder(r) {
    const status = r.status === 'fulfilled' ? r.value.status_id : undefined;
    const ol = h('ol', { class: 'ladder', 'data-testid': 'status-ladder' });
    for (const [id, name] of LADDER) {
      const li = h('li', { 'data-status': String(id) }, h('span', { class: 'step', text: String(id) }), ` ${name}`);
      if (id === status) {
        li.setAttribute('aria-current', 'step');
        li.classList.add('current');
      } else if (status !== undefined && REACHED[status]?.includes(id)) {
        li.classList.add('done');
      }
      ol.append(li);
    }
    return h('section', { 'aria-label': 'Status' }, h('h3', { text: 'Status' }), ol);
  }

  history(r) {
    const s = h('section', { 'aria-label': 'History' }, h('h3', { text: 'History' }));
    if (r.status === 'rejected') return (s.append(this.failed(r)), s);
    if (r.value.length === 0) return (s.append(h('p', { class: 'muted', text: 'No actions recorded yet.' })), s);
    // Newest first, numbered by step so the numbers keep their meaning.
    const ol = h('ol', { class: 'history', reversed: '' });
    for (const step of [...r.value].reverse()) {
      ol.append(
        h(
          'li',
          { class: step.history_major ? 'major' : '' },
          h('time', { text: step.history_date }),
          ` ${step.body_name ?? ''}: ${step.history_action}`,
        ),
      );
    }
    s.append(ol);
    return s;
  }

  votes(r) {
    const s = h('section', { 'aria-label': 'Votes' }, h('h3', { text: 'Votes' }));
    if (r.status === 'rejected') return (s.append(this.failed(r)), s);
    if (r.value.length === 0) return (s.append(h('p', { class: 'muted', text: 'No roll calls yet.' })), s);
    const table = h('table', { class: 'votes' });
    table.append(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Date', 'Chamber', 'Motion', 'Yea', 'Nay', 'NV', 'Absent', 'Result'].map((t) =>
            h('th', { scope: 'col', text: t }),
          ),
        ),
      ),
    );
    const tbody = h('tbody');
    for (const v of r.value) {
      tbody.append(
        h(
          'tr',
          {},
          ...[v.vote_date, v.body, v.description, v.yea, v.nay, v.nv, v.absent, v.passed ? 'Passed' : 'Failed'].map(
            (t) => h('td', { text: String(t ?? '') }),
          ),
        ),
      );
    }
    table.append(tbody);
    s.append(h('div', { class: 'scroll' }, table));
    return s;
  }
}
