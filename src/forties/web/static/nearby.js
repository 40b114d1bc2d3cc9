// A refusal where the eye is: a page's one refusal line (a role=alert element, so that a
// screen reader reads it out) is moved beside the control the person last tapped, typed in
// or sent, and brought into view if it is not, so that on a phone the answer to a tap is
// never a screen away from it. Any page may use it (the table, the score pad, the hall's).

let last = null;

function remember(ev) {
  const target = ev.target instanceof Element ? ev.target : null;
  const control = target && target.closest('button, input, select, textarea, summary, a[href]');
  if (control) last = control;
}

for (const type of ['pointerdown', 'keydown', 'focusin']) {
  document.addEventListener(type, remember, true);
}
document.addEventListener('submit', (ev) => {
  last = ev.submitter || (ev.target instanceof Element ? ev.target : last);
}, true);

/** The control the person touched last (null before any, or once it left the page). */
export function lastControl() {
  return last && last.isConnected ? last : null;
}

// Where a refusal goes for a control: before the nearest block marked
// data-refusal-anchor="before" (the table's hand, the pad's buttons), else after the
// nearest of the blocks below that holds the control (a list or a table as a whole).
const BLOCKS = '[data-refusal-anchor], form, .tablecard, .pad-row, ul, ol, table, fieldset, section';

const homes = new WeakMap(); // where each box stood in the page as written

function place(box, control) {
  if (!homes.has(box) && box.parentNode) homes.set(box, [box.parentNode, box.nextSibling]);
  const anchor = control && control.closest(BLOCKS);
  if (!anchor) {  // no control, or the box went with a part of the page drawn again
    const home = homes.get(box);
    if (!box.isConnected && home && home[0].isConnected) home[0].insertBefore(box, home[1] && home[1].parentNode === home[0] ? home[1] : null);
    return;
  }
  if (anchor.contains(box)) return;
  if (anchor.dataset.refusalAnchor === 'before') anchor.before(box);
  else anchor.after(box);
}

/** Bring `node` into the viewport if any part of it is out of it (the least scroll). */
export function intoView(node) {
  const r = node.getBoundingClientRect();
  if (r.height === 0 && r.width === 0) return;
  if (r.top < 0 || r.bottom > window.innerHeight) {
    node.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}

/** Show `text` in `box` beside `control` (by default the one last touched) and in view;
 *  an empty text clears the box where it is. */
export function showBeside(box, text, control = lastControl()) {
  if (!text) {
    box.textContent = '';
    return;
  }
  place(box, control);
  box.textContent = text;
  intoView(box);
}
